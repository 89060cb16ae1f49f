/**
 * The self-test's proof runs (npm test, stage `proof`): the conformance specs against the bundled mock once per
 * fault of the catalogue (the checks of the fault's rule must fail) and once per legal variant and combinations
 * that matter (the whole suite must pass). One Playwright start; each project's workers start their own mock
 * in-process on a free port (fixtures/mock-target.ts, option `mock`). ./judge.ts judges the runs.
 *
 * MATRIX_ONLY=fault:uncapped,variant:strict (comma list of project names) narrows it for debugging.
 */
import { defineConfig, type Project } from '@playwright/test';
import { rule } from '../../core/model/rules.ts';
import type { MockProjectOptions } from '../../fixtures/mock-target.ts';
import { FAULTS, VARIANT_DIMENSIONS } from '../../mock/index.ts';

type MatrixProject = Project<unknown, { mock: MockProjectOptions }>;

/** Each non-default value of each dimension alone, then combinations a real API would make together. */
export const VARIANT_SETS: Record<string, string[]> = {
  default: [],
  ...Object.fromEntries(
    VARIANT_DIMENSIONS.flatMap((d) => d.values.slice(1).map((v) => [`${d.name}=${v}`, [`${d.name}=${v}`]])),
  ),
  strict: [
    'over-limit=reject',
    'invalid=422',
    'unknown-status=reject',
    'unknown-sort=reject',
    'unknown-merchant=403',
    'method=404',
  ],
  lenient: ['invalid=coerce', 'unknown-sort=ignore', 'amount=string', 'extras=on', 'ties=reverse', 'unsorted=newest'],
  'reject-400': ['over-limit=reject', 'invalid=400', 'unknown-status=reject', 'ties=reverse', 'amount=string'],
};

// One fixed seed so the matrix is reproducible; FC_SEED overrides it.
process.env.FC_SEED ??= '20261122';

const only = new Set((process.env.MATRIX_ONLY ?? '').split(',').filter(Boolean));
const projects: MatrixProject[] = [
  // A fault runs only the checks of the rule it declares (their titles start with the id): a violation of that rule
  // is what catches it, and the other checks would only cost time. A fault on an ADVISORY rule fails a run only in
  // strict mode, so its run is strict.
  ...FAULTS.map((f) => ({
    name: `fault:${f.name}`,
    grep: new RegExp(`(^| )${f.rule} `),
    use: { mock: { faults: [f.name], strict: rule(f.rule).level === 'ADVISORY', recordViolations: true } },
  })),
  ...Object.entries(VARIANT_SETS).map(([name, variants]) => ({
    name: `variant:${name}`,
    use: { mock: { variants, recordViolations: true } },
  })),
].filter((p) => only.size === 0 || only.has(p.name));

export default defineConfig<unknown, { mock: MockProjectOptions }>({
  testDir: '../../specs',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  timeout: 120_000,
  reporter: [['./judge.ts', { outputDir: 'reports' }]],
  outputDir: '../../reports/proof-results',
  use: { trace: 'off', screenshot: 'off', video: 'off' },
  projects,
});
