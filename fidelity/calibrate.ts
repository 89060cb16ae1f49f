/**
 * `fidelity --calibrate A`: the bundled mock set up to answer like A. A is measured once (the requests of one fidelity
 * run, kept on disk: measure.ts); then, with no request to A, the mock's variant space is searched by cases
 * (search.ts), the shapes where A differs only in the look of an answer are learned (learn-shapes.ts), and the
 * calibrated mock is asked every case once more. It prints how alike the mock answered before and after, the command
 * that starts it so, the gaps no setting removes, and writes the calibration file and the reports.
 */
import { resolve } from 'node:path';
import { merchantId } from '../core/generate/access-cases.ts';
import type { Collection } from '../core/model/collection.ts';
import { PAYMENT_STATUSES, type Shapes } from '../mock/index.ts';
import { type CalibrationRecord, gapsOf, referenceOf, scrubbedText, writeCalibration } from './calibration-file.ts';
import type { Case } from './cases.ts';
import { compareAnswers, type Result, summaryLine } from './compare.ts';
import { learnShapes } from './learn-shapes.ts';
import { cachedMeasurement, casesOf, type Measurement, measure, measurementKey } from './measure.ts';
import { describeChoice, type MockRun, mockCollections, ownValues, runMock, servedAs } from './mock-runs.ts';
import { consoleText, type FidelityRun, writeReports } from './reports.ts';
import { type Reference, score, search } from './search.ts';
import type { Side } from './targets.ts';

interface CalibrateOptions {
  seed: number;
  runs: number;
  dir: string;
  /** Where the calibration file goes. */
  file: string;
  collections: readonly Collection[];
  /** Measure A again even when a measurement is kept. */
  remeasure: boolean;
}
type Io = { out: (line: string) => void; err: (line: string) => void };

/** How to start the mock from the calibration: the installed command's, or a clone's npm script. */
function mockCommand(args: string): string {
  const installed = (process.env.CONFORMANCE_COMMAND ?? '').startsWith('npx ');
  return `${installed ? 'npx payment-api-mock' : 'npm run mock --'} ${args}`.trim();
}

/** A's measurement: kept from an earlier calibration, or taken now. */
async function measurementOf(a: Side, o: CalibrateOptions, served: Map<string, Collection>, io: Io) {
  const key = measurementKey(a, o.seed, o.runs, [...a.collections.values()]);
  const kept = o.remeasure ? undefined : cachedMeasurement(o.dir, key);
  if (kept) {
    io.out(`A was measured earlier (${kept.sent} requests, kept in ${o.dir}/fidelity-cache): nothing sent to A now`);
    return { m: kept, sentNow: 0 };
  }
  const m = await measure(a, { seed: o.seed, runs: o.runs, dir: o.dir, served }, io.err);
  return m && { m, sentNow: m.sent };
}

/** The lines of the calibration section: the choice, the shapes, what no case shows, before and after. */
function calibrationLines(r: CalibrationRecord, runs: number, file: string): string[] {
  const s = r.shapes;
  const shapes = [
    s.errors?.length ? `error bodies (${s.errors.length} shape(s), by status and kind of failure)` : '',
    s.status ? "the status endpoint's body" : '',
    s.envelope ? `envelope fields ${Object.keys(s.envelope).join(', ')}` : '',
    s.headers ? `headers on every answer: ${Object.keys(s.headers).join(', ')}` : '',
    s.statuses
      ? `statuses as A names them: ${Object.entries(s.statuses)
          .map(([m, a]) => `${m} → ${a}`)
          .join(', ')}`
      : '',
  ].filter(Boolean);
  return [
    `variants: ${describeChoice(r.variants)}`,
    `shapes learned: ${shapes.join('; ') || 'none needed'}`,
    `left as they are: ${Object.entries(r.unseen)
      .map(([k, why]) => `${k} (${why})`)
      .join(', ')}`,
    `before (the bundled mock, defaults): ${r.alike.before}`,
    `after (calibrated): ${r.alike.after}`,
    `the mock, answering like A: ${mockCommand(`--calibration ${file}`)}`,
    `the variants alone: ${r.mock}`,
    `${runs} runs of the bundled mock in-process; no request to A during the search`,
  ];
}

/** The calibration record of a search's outcome. */
function recordOf(
  m: Measurement,
  cases: ReturnType<typeof casesOf>,
  parts: {
    found: Awaited<ReturnType<typeof search>>;
    shapes: CalibrationRecord['shapes'];
    before: Result[];
    after: Result[];
    final: MockRun;
  },
  ref: Reference,
): CalibrationRecord {
  const { found, shapes, before, after, final } = parts;
  const variants = ownValues(found.choice);
  const runs = [found.defaults, ...found.sweep.values(), found.best, final].map((r) => r.answers);
  return {
    format: 'payment-api-mock-calibration',
    version: 1,
    variants,
    shapes,
    mock: mockCommand(Object.keys(variants).length ? `--variant ${describeChoice(variants)}` : ''),
    measured: {
      target: `${m.target.file} (${m.target.baseURL})`,
      seed: m.seed,
      runs: m.runs,
      seen: m.seen,
      collections: m.collections,
      cases: cases.length,
      requests: m.sent,
    },
    alike: { before: summaryLine(before), after: summaryLine(after) },
    unseen: found.unseen,
    learned: Object.fromEntries([...found.effects].map(([k, ids]) => [k, ids.length])),
    reference: referenceOf(cases, ref.answers),
    gaps: gapsOf(after, ref.answers, runs),
  };
}

/** The gap lines: rule, case, what A answered, what the mock can answer, why. */
const gapLines = (r: CalibrationRecord) =>
  r.gaps.map(
    (g) =>
      `${g.rule} ${g.case}: ${g.aspect}: A answered ${g.reference}; the mock can answer ${g.mock.join(', ') || 'nothing else'} (${g.why})`,
  );

/** The calibration of the bundled mock against A (module comment); the exit code. */
export async function calibrate(a: Side, o: CalibrateOptions, io: Io): Promise<number> {
  a.learn = 'shapes';
  a.collections = new Map(o.collections.map((c) => [c.name, c]));
  const served = servedAs(o.collections, await mockCollections());
  for (const c of o.collections.filter((x) => !served.has(x.name)))
    io.err(`fidelity: the bundled mock serves no collection like ${c.name} (${c.path}): its cases are not compared`);
  const measured = await measurementOf(a, o, served, io);
  if (!measured) return 1;
  const { m } = measured;
  const cases = casesOf(m);
  const answers = new Map(Object.entries(m.answers));
  const asked = cases.filter((c) => !m.skipped[c.id]);
  const ref: Reference = { answers, basePath: basePathOf(a), skipped: new Set(Object.keys(m.skipped)) };
  const opts = { collections: served };
  const found = await search(ref, asked, opts);
  const kinds = await runMock(asked, { ...found.choice, errors: 'json' }, { ...opts, learn: 'kinds' });
  const learned = learnShapes(
    asked,
    answers,
    { best: found.best, kinds },
    { reference: m.statuses, mock: PAYMENT_STATUSES },
  );
  const { shapes, final } = await withShapes(asked, found, learned, ref, opts);
  const lack = (c: Case) => (m.skipped[c.id] ? `needs ${m.skipped[c.id]?.join(', ')}` : undefined);
  const before = compareAnswers(cases, ['A', 'B'], [answers, found.defaults.answers], lack);
  const after = compareAnswers(cases, ['A', 'B'], [answers, final.answers], lack);
  const record = recordOf(m, cases, { found, shapes, before, after, final }, ref);
  const unknown = merchantId(a.target, 'unknown');
  const merchantIds = [...Object.values(a.target.merchants), unknown].filter((x): x is string => !!x);
  writeCalibration(o.file, record, { merchantIds, recordIds: m.ids.strings });
  const sides = [
    {
      name: 'A',
      file: `${a.file}${measured.sentNow ? '' : ' (measured earlier: no request sent now)'}`,
      baseURL: a.target.baseURL,
      total: m.totals[''] ?? 0,
      sent: m.sent,
    },
    { name: 'B', file: 'the bundled mock, calibrated', baseURL: 'in-process', total: final.total, sent: final.sent },
  ];
  const runs = found.evaluations + (final === found.best ? 1 : 2);
  const lines = calibrationLines(record, runs, o.file);
  const run: FidelityRun = {
    seed: m.seed,
    runs: m.runs,
    sides,
    results: after,
    sections: [
      { title: 'Calibration', lines },
      { title: `Gaps: differences no setting of the mock removes (${record.gaps.length})`, lines: gapLines(record) },
    ],
    extra: { calibration: { file: resolve(o.file), ...record, reference: undefined } },
  };
  const written = writeReports(o.dir, run);
  io.out(
    scrubbedText(
      [
        consoleText(run),
        ...lines.map((l) => `calibration: ${l}`),
        ...gapLines(record).map((l) => `gap: ${l}`),
        `Calibration file: ${o.file} (the mock loads it with --calibration)`,
        `Reports: ${written.join(', ')}`,
        summaryLine(after),
      ].join('\n'),
      { merchantIds, recordIds: m.ids.strings },
    ),
  );
  return 0;
}

/**
 * The calibrated mock with the shapes learned; a part that answers fewer cases alike than the variants alone (a
 * status renamed that the reference knows after all) is left out.
 */
async function withShapes(
  asked: readonly Case[],
  found: Awaited<ReturnType<typeof search>>,
  learned: Shapes,
  ref: Reference,
  opts: { collections: Map<string, Collection> },
): Promise<{ shapes: Shapes; final: MockRun }> {
  if (Object.keys(learned).length === 0) return { shapes: learned, final: found.best };
  const floor = score(ref, found.best, asked).alike;
  const { statuses, ...rest } = learned;
  for (const shapes of [learned, rest]) {
    if (Object.keys(shapes).length === 0) continue;
    const final = await runMock(asked, found.choice, { ...opts, shapes });
    if (score(ref, final, asked).alike >= floor) return { shapes, final };
  }
  return { shapes: {}, final: found.best };
}

const basePathOf = (s: Side) => new URL(s.target.baseURL).pathname.replace(/\/$/, '');
