/**
 * `npm run conformance`: the conformance specs (specs/) against the configured target, or against the
 * bundled mock, which global setup starts in-process when API_BASE_URL is unset. The config is validated here, before
 * any request: a bad config stops the run with one message naming the variable, never its value.
 */
import { randomInt } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { openLedger, resetLedger } from './core/client/ledger.ts';
import { BaselineError, placeholderEntries } from './core/model/baseline.ts';
import { COLLECTIONS_VAR, describeCollection, PAYMENTS, publishedCollections } from './core/model/collection.ts';
import { RUN_OUTPUTS, shardFolder } from './core/model/outputs.ts';
import { EVERY_ANSWER_SPEC } from './core/model/rules.ts';
import {
  describeDepth,
  describeInputs,
  describeTarget,
  publishRun,
  type RunContext,
  readRun,
  type TargetInfo,
} from './core/model/run-context.ts';
import type { Target } from './core/model/target.ts';
import { ConfigError, loadEnvFiles, refusedTarget, resolveTarget, unknownVariables } from './core/run/config.ts';
import { runContext, runTarget } from './core/run/context.ts';
import { checkTimeLimitMs } from './core/run/limits.ts';
import { writePlan } from './core/run/time-budget.ts';
import { bundledMockEnv } from './fixtures/mock-target.ts';
import { placeholderLine } from './reporters/baseline.ts';
import { clearRun, writeSetUpReports } from './reporters/reports.ts';
import { heldByThisProcess, heldMessage, lockReports } from './reporters/reports-lock.ts';

// Everything the run writes goes here, resolved against the current directory (the installed package's own
// folder is no place for reports). CONFORMANCE_REPORTS_DIR (`--reports`) moves it.
const REPORTS = resolve(process.env.CONFORMANCE_REPORTS_DIR?.trim() || 'reports');
// A module of the suite by its source path: this file runs as TypeScript in a clone and as compiled JavaScript
// (dist/) in the installed package, where its siblings end in .js.
const own = (path: string) =>
  fileURLToPath(new URL(path.replace(/\.ts$/, extname(fileURLToPath(import.meta.url))), import.meta.url));
const isMainProcess = process.env.TEST_WORKER_INDEX === undefined;
// `-- --list` runs nothing: it must not clear what the last run left (the rule matrix's reporter writes nothing either).
const listOnly = process.argv.includes('--list');
// A shard (`--shard=2/3` or `--shard 2/3`) writes its rule matrix into its own folder (core/model/outputs.ts).
const shardArg = process.argv.find((a, i) => a.startsWith('--shard=') || process.argv[i - 1] === '--shard');
const shardMatch = /^(?:--shard=)?(\d+)\/(\d+)$/.exec(shardArg ?? '');
const SHARD = shardMatch ? { current: Number(shardMatch[1]), total: Number(shardMatch[2]) } : null;
const shardDir = SHARD ? shardFolder(SHARD) : undefined;
const MATRIX_DIR = shardDir ? resolve(REPORTS, shardDir) : REPORTS;

// One run per reports folder: a second one at the same time would clean and overwrite what the first is writing. The
// run that takes the folder clears what an earlier run left there first, so that the folder never holds two runs
// (reporters/reports.ts); Playwright loads this file again in the same process, which must not clear it twice.
if (isMainProcess) {
  const first = !heldByThisProcess(REPORTS);
  const holder = lockReports(REPORTS);
  if (holder) {
    console.error(heldMessage(REPORTS, holder));
    process.exit(2);
  }
  if (first && !listOnly) clearRun(REPORTS, shardDir);
}

/** A run refused at its set-up writes the whole set of reports too, then stops: bad configuration, exit 2. */
function refuse(problems: string[], target?: TargetInfo): never {
  if (!listOnly) {
    writeSetUpReports(MATRIX_DIR, problems, { target, durationSeconds: Number(process.uptime().toFixed(2)) });
  }
  process.exit(2);
}

/** The configuration, validated before any request (the main process; a worker reads the run context back). */
function validatedTarget(): Target {
  // Variables that look like the suite's but are not (a typo): a warning each; a near miss of a required variable is
  // said once, in the problem that names it.
  const warn = (problems: string[] = []) => {
    for (const warning of unknownVariables()) {
      const name = warning.split(' ')[0] as string;
      if (!problems.some((p) => p.includes(`${name} in `))) console.error(`warning: ${warning}`);
    }
  };
  try {
    loadEnvFiles();
    const resolved = resolveTarget(process.env, bundledMockEnv);
    warn();
    return resolved;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    warn(error.problems);
    console.error(error.message);
    // The outcome (bad configuration, exit 2) is in the rule matrix like every other outcome.
    return refuse(error.problems, error.target);
  }
}

/**
 * The run's context, resolved once (main process) and published for the workers and reporters: the target, the seed,
 * the baseline (a file that cannot be used is a bad configuration, before any request), where everything goes.
 */
function resolvedRun(): RunContext {
  const target = validatedTarget();
  const files = {
    ledger: resolve(REPORTS, RUN_OUTPUTS.ledger),
    requestLog: resolve(REPORTS, RUN_OUTPUTS.requestLog),
    watch: resolve(REPORTS, RUN_OUTPUTS.watch),
    checks: resolve(REPORTS, RUN_OUTPUTS.checks),
  };
  try {
    const place = { reports: REPORTS, shard: SHARD, matrixDir: MATRIX_DIR, files };
    return runContext(target, place, () => randomInt(1, 2 ** 31 - 1));
  } catch (error) {
    if (!(error instanceof BaselineError)) throw error;
    console.error(error.message);
    return refuse([error.message], refusedTarget(target));
  }
}

// Playwright loads this file in the workers, and more than once in the main process: the run is resolved once.
const published = readRun();
const mine = published && (!isMainProcess || published.pid === process.pid) ? published : undefined;
const RUN = mine ?? resolvedRun();
const target = runTarget(RUN, process.env, bundledMockEnv);
// The collections besides payments (--collections, API_COLLECTIONS): read once, here, before any request, and published
// to the workers (they inherit the variable); a file that cannot be used is a bad configuration.
const collectionsFile = process.env.API_COLLECTIONS?.trim();
if (isMainProcess && collectionsFile && process.env[COLLECTIONS_VAR] === undefined) {
  try {
    // Loaded only when asked for: the reader (YAML, a JSON Schema validator, the OpenAPI parser) costs every process.
    const { loadCollections, publishCollections } = await import('./core/run/collections.ts');
    const loaded = await loadCollections(collectionsFile);
    publishCollections(loaded.collections);
    for (const note of loaded.notes) console.log(`collections: ${note}`);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    refuse(error.problems, refusedTarget(target));
  }
}
// Two workers on loopback; one for a remote target (politeness: one pace and one budget for the whole run), and one
// at quick, a run paced by its target: one process reads each listing once (two read the same sets twice).
const WORKERS = target.loopback && target.depth.name !== 'quick' ? 2 : 1;
if (isMainProcess && !listOnly && !mine) {
  // One request ledger for the whole run (every worker, every restart): the budget and the count. Every request of
  // the run, logged by each process into its own file (assembled into requests.ndjson and requests.har at the end),
  // and every answer, kept for the checks that judge them all (core/run/watch.ts).
  resetLedger(RUN.files.ledger);
  mkdirSync(RUN.files.requestLog, { recursive: true });
  mkdirSync(RUN.files.watch, { recursive: true });
  publishRun(RUN);
  // The console's first lines: which API, as whom, by which suite, with which seed.
  const where = target.bundledMock ? { ...RUN.target, baseURL: '127.0.0.1, on the port it gets at start' } : RUN.target;
  console.log(`Target: ${describeTarget(where)}; ${describeDepth(RUN.settings)}`);
  console.log(`  ${describeInputs(RUN.target)}`);
  const others = publishedCollections();
  if (others.length > 0) {
    console.log(`  collections: ${[PAYMENTS, ...others].map(describeCollection).join(', ')}`);
  }
  console.log(`seed ${RUN.seed} — rerun with FC_SEED=${RUN.seed}`);
  // A baseline written by --write-baseline and never edited: said now, and again in every report.
  for (const entry of placeholderEntries(RUN.baseline?.entries ?? [])) {
    console.error(`warning: baseline ${RUN.baseline?.file}: ${placeholderLine(entry)}`);
  }
}
// The run's ledger, for the reporters that show its counts (they never open it themselves).
const ledger = openLedger(RUN.files.ledger);
// The time budget's plan (--max-time): the console reporter hands it the checks once Playwright knows them.
const plan = (checks: Parameters<typeof writePlan>[1]) => writePlan(RUN.files.checks, checks);

// The checks of every answer (specs/every-answer.spec.ts) judge every answer the other checks got: they run last.
// In the checks' own workers (a process fewer to start than a project of their own, about a second of a run on the
// mock): their file sorts last and runs in one worker, and waits until the console reporter has seen every other
// check end, which it says with this file. A shard runs its checks project's share of the checks but a teardown
// project whole, so a sharded run judges every answer of its shard in a teardown project.
const OTHERS_ENDED = resolve(RUN.files.watch, 'others-ended');
const othersEnded = () => writeFileSync(OTHERS_ENDED, '');
// The door checks (specs/doors.spec.ts) take their candidates from every answer of the run: their file sorts after the
// numbered specs, and with two workers they wait until every check before them has ended, which this file says.
const BEFORE_DOORS_ENDED = resolve(RUN.files.watch, 'before-doors-ended');
const beforeDoorsEnded = () => writeFileSync(BEFORE_DOORS_ENDED, '');
// The run's shard, as the main process read it from its arguments (a worker's are not the command's).
const projects = RUN.shard
  ? [
      { name: 'checks', testIgnore: EVERY_ANSWER_SPEC, teardown: 'every answer' },
      { name: 'every answer', testMatch: EVERY_ANSWER_SPEC, fullyParallel: false, use: { watchOf: 'checks' } },
    ]
  : [{ name: 'checks', use: { othersEnded: OTHERS_ENDED, beforeDoorsEnded: BEFORE_DOORS_ENDED } }];

// The run's facts for the HTML report (metadata) and Allure's environment; never a key.
const facts = {
  target: target.bundledMock ? 'the bundled mock' : target.baseURL,
  profile: target.profile,
  'optional inputs': RUN.target.configured.join(', ') || 'none',
  suite: `payment-api-conformance ${RUN.target.suiteVersion}`,
  seed: String(RUN.seed),
};

export default defineConfig<
  object,
  {
    watchOf: string | undefined;
    watchDir: string | undefined;
    othersEnded: string | undefined;
    beforeDoorsEnded: string | undefined;
  }
>({
  testDir: './specs',
  // The live profile runs only the short cutover checklist (checks tagged @cutover), read-only and cheap.
  grep: target.grep,
  fullyParallel: true,
  workers: WORKERS,
  retries: 0,
  // A check's time limit, from API_TIMEOUT_MS, the pace and the requests it may send (core/run/limits.ts); each check
  // sets its own again once the preflight has seen the target's answer time (fixtures/test.ts).
  timeout: checkTimeLimitMs(target, { workers: WORKERS }),
  forbidOnly: !!process.env.CI,
  metadata: facts,
  reporter: [
    // `playwright test --list` lists with Playwright's own list-mode reporter; a run prints through ours (progress).
    listOnly
      ? ['list']
      : [
          own('./reporters/console.ts'),
          {
            budget: target.maxRequests,
            maxRps: target.maxRps,
            ledger,
            ...(target.maxTimeMs ? { plan } : {}),
            ...(RUN.shard ? {} : { othersEnded, beforeDoorsEnded }),
          },
        ],
    // The rule matrix before the HTML report: it writes conformance.json/.md/.html, junit.xml (one test case per check,
    // violations as <failure>) and requests.ndjson/.har, and gives the HTML report its title, the outcome.
    [own('./reporters/end-of-run.ts'), { ledger }],
    ['html', { outputFolder: resolve(REPORTS, RUN_OUTPUTS.html), open: 'never' }],
    ['json', { outputFile: resolve(REPORTS, RUN_OUTPUTS.results) }],
    // Allure's results, as allure-playwright writes them, without an fsync per file (reporters/allure.ts).
    [
      own('./reporters/allure.ts'),
      {
        resultsDir: resolve(REPORTS, RUN_OUTPUTS.allureResults),
        detail: false,
        suiteTitle: false,
        environmentInfo: facts,
      },
    ],
    // Sharded CI runs (see .github/workflows) keep a blob report per shard for merge-reports.
    ...(process.env.CONFORMANCE_BLOB === '1'
      ? [['blob', { outputDir: resolve(REPORTS, RUN_OUTPUTS.blob) }] as const]
      : []),
  ],
  outputDir: resolve(REPORTS, RUN_OUTPUTS.testResults),
  // No trace, no screenshots, and no headers in `use`: nothing here may ever hold a key.
  use: { trace: 'off', screenshot: 'off', video: 'off', watchDir: RUN.files.watch },
  globalSetup: own('./fixtures/global-setup.ts'),
  // The checks, then the checks of what no answer of the run may carry, which judge every answer the checks got
  // (specs/every-answer.spec.ts): they run last, whatever else fails.
  projects,
});
