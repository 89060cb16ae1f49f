/**
 * The self-test's proof runs (npm test, stage `proof`): the conformance specs against the bundled mock, on both
 * collections of the example file (payments and refunds), once per fault of the catalogue (the checks of the fault's
 * rule must fail), once per fault switched on for refunds alone (`fault:NAME@refunds`: it must fail there and nowhere
 * else), once per named combination of legal variants (`variant:NAME`), and once per combination of the legal space
 * drawn for this run (`legal:<seed>:<i>`, ./legal-space.ts) — the whole suite must pass on each. One Playwright
 * start; each project's workers start their own mock in-process on a free port (fixtures/mock-target.ts, option
 * `mock`). ./judge.ts judges the runs.
 *
 * MATRIX_ONLY=fault:uncapped,variant:strict (comma list of project names; `legal:*` for all the drawn ones) narrows
 * it for debugging. LEGAL_SEED=<seed> replays a draw, LEGAL_COMBINATIONS=<K> draws K combinations (default 12).
 */
import { mkdirSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig, type Project } from '@playwright/test';
import { COLLECTIONS_VAR } from '../../core/model/collection.ts';
import {
  EVERY_ANSWER_CAP_RULES,
  EVERY_ANSWER_RULES,
  EVERY_ANSWER_SPEC,
  EVERY_PAGE_RULES,
  family,
  rule,
} from '../../core/model/rules.ts';
import { loadCollections, publishCollections } from '../../core/run/collections.ts';
import type { MockProjectOptions } from '../../fixtures/mock-target.ts';
import { FAULTS } from '../../mock/index.ts';
import {
  COLLECTION_FAULTS,
  EXAMPLE_COLLECTION,
  EXAMPLE_COLLECTIONS,
  SEED_FAULTS,
  SEED_RUNS,
} from './collection-projects.ts';
import { drawLegalSpace, legalCount, legalSeed, variantArgs } from './legal-space.ts';
import { VARIANT_SETS } from './variant-sets.ts';

type MatrixProject = Project<unknown, { mock: MockProjectOptions; watchOf?: string; watchDir?: string }>;

// One fixed seed so the matrix is reproducible; FC_SEED overrides it.
process.env.FC_SEED ??= '20261122';
// The legal space's seed: new on every run, fixed here before the workers start (they inherit it and load this
// config again, so they draw the same combinations); the judge prints it.
process.env.LEGAL_SEED = String(legalSeed(process.env.LEGAL_SEED));
const seed = Number(process.env.LEGAL_SEED);
const legal = drawLegalSpace(seed, legalCount(process.env.LEGAL_COMBINATIONS));

// Every answer of every project is kept for the checks that judge them all (specs/every-answer.spec.ts), each
// project's by its name; the folder is cleared once, by the runner's own process (workers load this config too).
const WATCH_DIR = resolve('reports/proof-watch');
if (process.env.TEST_WORKER_INDEX === undefined) {
  rmSync(WATCH_DIR, { recursive: true, force: true });
  mkdirSync(WATCH_DIR, { recursive: true });
}
// The example collection beside payments (examples/collections.json): every project checks both (published here,
// inherited by the workers).
if (process.env.TEST_WORKER_INDEX === undefined && process.env[COLLECTIONS_VAR] === undefined) {
  publishCollections((await loadCollections(EXAMPLE_COLLECTIONS)).collections);
}

/** The checks of a rule and of its family (FLT-STATUS on payments, FLT-FIELD on refunds): their titles start with an id. */
const checksOf = (id: string) => new RegExp(`(^| )(?:${family(id).join('|')}) `);

const only = (process.env.MATRIX_ONLY ?? '').split(',').filter(Boolean);
const selected = (name: string) =>
  only.length === 0 || only.some((o) => (o.endsWith('*') ? name.startsWith(o.slice(0, -1)) : name === o));
const projects: MatrixProject[] = [
  // A fault runs only the checks of the rule it declares (their titles start with the id): a violation of that rule
  // is what catches it, and the other checks would only cost time. A fault on an ADVISORY rule fails a run only in
  // strict mode, so its run is strict.
  ...FAULTS.map((f) => ({
    name: `fault:${f.name}`,
    grep: checksOf(f.rule),
    // A handful of checks: one worker (a process started costs more than running them one after another).
    workers: 1,
    use: { mock: { faults: [f.name], strict: rule(f.rule).level === 'ADVISORY', recordViolations: true } },
  })),
  ...Object.entries(VARIANT_SETS).map(([name, variants]) => ({
    name: `variant:${name}`,
    // One worker per project, two projects at a time: a second worker and a teardown process per project cost more
    // CPU (their start, about 2 s each) than they win on a machine whose cores the other project keeps busy.
    workers: 1,
    use: { mock: { variants, recordViolations: true } },
  })),
  ...legal.map((combination, i) => ({
    name: `legal:${seed}:${i + 1}`,
    workers: 1,
    use: { mock: { variants: variantArgs(combination), recordViolations: true } },
  })),
  // Faults switched on for the example collection alone, with the checks of the fault's rule on every collection:
  // each must fail there only.
  ...COLLECTION_FAULTS.map((name) => {
    const f = FAULTS.find((x) => x.name === name);
    if (!f) throw new Error(`tests/proof/collection-projects.ts names an unknown fault: ${name}`);
    return {
      name: `fault:${name}@${EXAMPLE_COLLECTION}`,
      grep: checksOf(f.rule),
      workers: 1,
      use: { mock: { faults: [`${name}@${EXAMPLE_COLLECTION}`], recordViolations: true } },
    };
  }),
  // Each seeded catch once per seed: the same verdict (caught) on every one.
  ...Object.entries(SEED_FAULTS).flatMap(([name, grep]) =>
    SEED_RUNS.map((fcSeed) => ({
      name: `seed:${name}:${fcSeed}`,
      grep,
      workers: 1,
      use: { mock: { faults: [name], fcSeed, recordViolations: true } },
    })),
  ),
]
  // The seed runs (95 s on 2 cores) run only when named: MATRIX_ONLY='seed:*'.
  .filter((p) => (p.name.startsWith('seed:') ? only.length > 0 : true) && selected(p.name))
  // The checks of what no answer may carry judge the project's answers in its own worker, last: one worker, files in
  // alphabetical order (every-answer.spec.ts sorts after the numbered specs), for a project whose checks they judge
  // (all of them, or a fault's of the rules they judge); others need none.
  .map((p): MatrixProject => (watchedBy(p) ? { ...p, fullyParallel: false } : { ...p, testIgnore: EVERY_ANSWER_SPEC }));

/**
 * Whether the checks of every answer judge anything of this project: it selects all checks, or one of their rules
 * (the provenance rules, KEY-SECRET, the rules of a single page).
 */
function watchedBy(p: MatrixProject): boolean {
  const grep = p.grep;
  if (!grep || Array.isArray(grep)) return true;
  return ['KEY-SECRET', ...EVERY_ANSWER_RULES, ...EVERY_PAGE_RULES, ...EVERY_ANSWER_CAP_RULES].some((id) =>
    grep.test(`${id} `),
  );
}

export default defineConfig<unknown, { mock: MockProjectOptions; watchOf?: string; watchDir?: string }>({
  testDir: '../../specs',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  timeout: 120_000,
  reporter: [['./judge.ts', { outputDir: 'reports' }]],
  outputDir: '../../reports/proof-results',
  use: { trace: 'off', screenshot: 'off', video: 'off', watchDir: WATCH_DIR },
  projects,
});
