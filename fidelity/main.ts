/**
 * `payment-api-conformance fidelity` (in a clone also `npm run fidelity --`): how faithfully one target reproduces
 * another (docs/fidelity.md).
 *   fidelity A B [C …]               the same cases sent to every target, each answer judged by the suite's checks,
 *                                    each other target compared with A
 *   fidelity --calibrate A           the bundled mock's setting closest to A, found without a request to A beyond
 *                                    one measurement (calibrate.ts), written as a file the mock loads
 *   fidelity --check FILE A          whether A still answers as when FILE was calibrated (drift.ts)
 * Reports as the conformance run writes them (--reports DIR, default ./reports; --out is the same option).
 * Exit: 0 it ran (differences are findings); 1 differences with --fail-on-diff, drift with --check, or a target that
 * does not answer; 2 bad usage, a bad env file, calibration file or collections file.
 */
import { resolve } from 'node:path';
import { commandArgs } from '../commands/options.ts';
import type { Collection } from '../core/model/collection.ts';
import { loadCollections } from '../core/run/collections.ts';
import { ConfigError } from '../core/run/config.ts';
import { CalibrationError, readCalibration } from '../mock/index.ts';
import { calibrate } from './calibrate.ts';
import { buildCases } from './cases.ts';
import { compareAnswers, summaryLine, tally } from './compare.ts';
import { check, isRecord } from './drift.ts';
import { consoleText, writeReports } from './reports.ts';
import { askAll, collectionCases, firstPages, skipWhenLacking } from './run.ts';
import { loadSides, type Side } from './targets.ts';

const USAGE = `Usage: payment-api-conformance fidelity <envA> <envB> [<envC> …] [options]   (in a clone: npm run fidelity -- …)
       payment-api-conformance fidelity --calibrate <envA> [options]
       payment-api-conformance fidelity --check <calibration.json> <envA> [options]
  Compares targets (A the reference), finds the bundled mock's setting closest to A (--calibrate: A is measured once,
  the measurement kept in DIR/fidelity-cache; the calibration file goes to --write-calibration FILE, default
  DIR/calibration.json; npm run mock -- --calibration FILE starts the mock so), or tells whether A moved away from a
  calibration (--check: exit 1, naming the cases).
  --reports DIR (alias --out)   where fidelity.html, .md, .json and fidelity-junit.xml go (default ./reports)
  --seed N, --runs N            the case list (1 and 12)
  --collections FILE            other collections of A (a collections file or OpenAPI document): their cases too
  --remeasure                   --calibrate: measure A again instead of reusing the kept measurement
  --fail-on-diff                exit 1 when any case is answered differently
  The env files are read like .env.example; no key is ever printed or written.`;

type Io = { out: (line: string) => void; err: (line: string) => void };

const OPTIONS = {
  seed: { type: 'string' },
  runs: { type: 'string' },
  reports: { type: 'string' },
  out: { type: 'string' },
  'fail-on-diff': { type: 'boolean' },
  calibrate: { type: 'string' },
  check: { type: 'string' },
  'write-calibration': { type: 'string' },
  collections: { type: 'string' },
  remeasure: { type: 'boolean' },
} as const;

class Usage extends Error {}

/** The options, checked; a usage error throws Usage; a number when the command ends here (--help, an unknown option). */
function options(argv: string[]) {
  const parsed = commandArgs('fidelity', argv, OPTIONS, USAGE, true);
  if (typeof parsed === 'number') return parsed;
  const { values: v, positionals: files } = parsed;
  const int = (raw = '', fallback: number) => (raw === '' ? fallback : /^\d+$/.test(raw) ? +raw : -1);
  const dir = resolve(v.reports?.trim() || v.out?.trim() || process.env.CONFORMANCE_REPORTS_DIR?.trim() || 'reports');
  const o = { ...v, seed: int(v.seed, 1), runs: int(v.runs, 12), dir };
  if (o.seed < 0 || o.runs < 1) throw new Usage('--seed must be 0 or more, --runs 1 or more');
  if (v.calibrate !== undefined && v.check !== undefined) throw new Usage('--calibrate and --check go alone');
  if (v.calibrate !== undefined && files.length > 0) throw new Usage('--calibrate takes one env file, A');
  if (v.check !== undefined && files.length !== 1) throw new Usage('--check takes the calibration file, then A');
  if (v.calibrate === undefined && v.check === undefined && (files.length < 2 || files.length > 26))
    throw new Usage('two or more env files (A, B, …)');
  return { o, files };
}

/** The other collections a file declares (none without --collections). */
async function collectionsOf(file: string | undefined): Promise<Collection[]> {
  return file ? (await loadCollections(file)).collections : [];
}

/** A, B, …: every target asked every case it can be, each compared with A. */
type Options = Exclude<ReturnType<typeof options>, number>['o'];

async function compareMode(sides: Side[], o: Options, io: Io): Promise<number> {
  const collections = await collectionsOf(o.collections);
  for (const s of sides) s.collections = new Map(collections.map((c) => [c.name, c]));
  const seen = await firstPages(sides, io.err);
  if (!seen) return 1;
  const cases = buildCases(o.seed, o.runs, seen.statuses, collectionCases(sides[0] as Side, seen));
  const skip = skipWhenLacking(sides);
  const sent = cases.filter((c) => !skip(c));
  const answers = await Promise.all(sides.map((s) => askAll(s, sent)));
  const results = compareAnswers(
    cases,
    sides.map((s) => s.name),
    answers,
    skip,
  );
  const shown = sides.map((s) => ({
    name: s.name,
    file: s.file,
    baseURL: s.target.baseURL,
    total: s.totals.get('') ?? 0,
    sent: s.api.sent,
  }));
  const run = { seed: o.seed, runs: o.runs, sides: shown, results };
  const written = writeReports(o.dir, run);
  io.out([consoleText(run), `Reports: ${written.join(', ')}`, summaryLine(results)].join('\n'));
  const t = tally(results);
  return o['fail-on-diff'] && t.alike < t.compared ? 1 : 0;
}

export async function main(argv: string[], io: Io = { out: console.log, err: console.error }): Promise<number> {
  try {
    const parsed = options(argv);
    if (typeof parsed === 'number') return parsed;
    const { o, files } = parsed;
    if (o.calibrate !== undefined) {
      const [a] = loadSides([o.calibrate]);
      const file = resolve(o['write-calibration']?.trim() || resolve(o.dir, 'calibration.json'));
      const collections = await collectionsOf(o.collections);
      return await calibrate(a as Side, { ...o, file, collections, remeasure: !!o.remeasure }, io);
    }
    if (o.check !== undefined) {
      const record = readCalibration(o.check);
      if (!isRecord(record))
        throw new CalibrationError(`${o.check} has no record of what was measured (write it with --calibrate)`);
      const [a] = loadSides(files);
      return await check(record, o.check, a as Side, o.dir, io);
    }
    return await compareMode(loadSides(files), o, io);
  } catch (error) {
    if (error instanceof ConfigError) io.err(`fidelity: ${error.problems.join('\n')}`);
    else if (error instanceof CalibrationError) io.err(`fidelity: ${error.message}`);
    else if (error instanceof Usage) io.err(`fidelity: ${error.message}\n${USAGE}`);
    else throw error;
    return 2;
  }
}
