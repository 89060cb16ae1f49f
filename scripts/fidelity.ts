/**
 * `npm run fidelity -- <envA> <envB>`: how faithfully target B (typically a mock) reproduces the shape of
 * target A (typically the vendor sandbox). One deterministic case list (seed) goes to both; the responses'
 * shapes are compared rule by rule. See docs/fidelity.md.
 *
 * Exit codes: 0 it ran (differences are findings); 1 differences with --fail-on-diff, or a target did not
 * answer; 2 bad usage or a bad env file (nothing sent).
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { redact } from '../fixtures/secrets.ts';
import { FidelityConfigError, loadTargets } from './fidelity/load.ts';
import { type FullReport, renderText, writeReports } from './fidelity/report.ts';
import { compareLoaded, TargetUnreachable } from './fidelity/run.ts';
import { compareSuites } from './fidelity/suite.ts';

export { FidelityConfigError } from './fidelity/load.ts';
export { compareTargets, type FidelityReport } from './fidelity/run.ts';

export const USAGE = `Usage: npm run fidelity -- <envA> <envB> [options]

Judges how faithfully target B reproduces the response shapes of target A (typically A = the vendor
sandbox, B = a mock). Each env file is read like .env.example (API_BASE_URL, API_TEST_KEY,
SANDBOX_MERCHANT_ID, optional keys and merchants); nothing is loaded into the environment.

  --seed N          seed of the case list (default 1)
  --runs N          sampled windows and odd inputs (default 12)
  --out DIR         where fidelity.json and fidelity.md go (default reports)
  --suite           also run the conformance suite against both and diff the rule verdicts
  --fail-on-diff    exit 1 when any case differs
  --help            print this help

Exit codes: 0 ran (differences are findings), 1 differences with --fail-on-diff or a target did not
answer, 2 bad usage or bad env file.`;

export interface RunOptions {
  fileA: string;
  fileB: string;
  seed?: number;
  runs?: number;
  /** Default 'reports'. */
  outDir?: string;
  suite?: boolean;
  /** Where the text report goes (default: stdout). */
  log?: (text: string) => void;
}

/** The whole run: load, compare, optionally run the suite, write the reports, print. Throws on bad files. */
export async function runFidelity(opts: RunOptions): Promise<FullReport & { files: string[] }> {
  const [A, B] = loadTargets(opts.fileA, opts.fileB);
  const seed = opts.seed ?? 1;
  const report: FullReport = await compareLoaded(A, B, { seed, runs: opts.runs });
  const outDir = resolve(opts.outDir ?? 'reports');
  if (opts.suite) report.suite = await compareSuites(A, B, outDir, seed);
  const files = writeReports(report, outDir);
  const log = opts.log ?? ((text: string) => void process.stdout.write(`${text}\n`));
  log(`${renderText(report)}Reports: ${files.join(', ')}`);
  return { ...report, files };
}

class UsageError extends Error {}

function integer(name: string, raw: string | undefined, min: number): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min || !Number.isSafeInteger(Number(raw))) {
    throw new UsageError(`--${name} must be a whole number ≥ ${min}`);
  }
  return Number(raw);
}

export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
}

const STDIO: Io = {
  out: (text) => void process.stdout.write(`${text}\n`),
  err: (text) => void process.stderr.write(`${text}\n`),
};

export async function main(argv: string[], io: Io = STDIO): Promise<number> {
  let opts: RunOptions;
  let failOnDiff = false;
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        seed: { type: 'string' },
        runs: { type: 'string' },
        out: { type: 'string' },
        suite: { type: 'boolean' },
        'fail-on-diff': { type: 'boolean' },
        help: { type: 'boolean' },
      },
    });
    if (values.help) {
      io.out(USAGE);
      return 0;
    }
    if (positionals.length !== 2) throw new UsageError(`expected two env files, got ${positionals.length}`);
    const [fileA, fileB] = positionals as [string, string];
    opts = {
      fileA,
      fileB,
      seed: integer('seed', values.seed, 0),
      runs: integer('runs', values.runs, 1),
      outDir: values.out,
      suite: values.suite ?? false,
      log: io.out,
    };
    failOnDiff = values['fail-on-diff'] ?? false;
  } catch (error) {
    io.err(`fidelity: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  try {
    const report = await runFidelity(opts);
    const suiteDiffers = (report.suite?.differences.length ?? 0) > 0;
    return failOnDiff && (report.differences.length > 0 || suiteDiffers) ? 1 : 0;
  } catch (error) {
    if (error instanceof FidelityConfigError) {
      io.err(error.message);
      return 2;
    }
    if (error instanceof TargetUnreachable) {
      io.err(`fidelity: a target did not answer: ${error.message}`);
      return 1;
    }
    io.err(redact(`fidelity: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`));
    return 1;
  }
}

const entry = process.argv[1];
if (entry !== undefined && import.meta.url === pathToFileURL(resolve(entry)).href) {
  process.exitCode = await main(process.argv.slice(2));
}
