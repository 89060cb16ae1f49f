/**
 * Changing data (npm test): the suite against a target whose data set gains a payment with every request,
 * as a busy shared sandbox does. Every pagination, filter and sort check must come out inconclusive or
 * pass, never fail: a check that sees `total` move between its own requests retries once, then reports
 * "inconclusive". And the checks that compare reads must actually say inconclusive (not pass by luck).
 */
import { readFileSync, rmSync } from 'node:fs';
import { startHostileTarget } from '../support/hostile-targets.ts';
import { runSuite } from '../support/run-suite.ts';
import { CANARY_KEYS } from './secrets-canary.ts';

export interface ChangingDataResult {
  verdicts: Record<string, string>;
  problems: string[];
}

export async function runChangingData(): Promise<ChangingDataResult> {
  const target = await startHostileTarget('growing');
  const dir = 'reports/changing-data';
  rmSync(dir, { recursive: true, force: true });
  const child = await runSuite(
    {
      ...process.env,
      API_BASE_URL: target.url,
      API_TEST_KEY: CANARY_KEYS.API_TEST_KEY,
      SANDBOX_MERCHANT_ID: 'msb_growing',
      CONFORMANCE_PROFILE: '',
      CONFORMANCE_REPORTS_DIR: dir,
      FC_NUM_RUNS: '5',
      FORCE_COLOR: '0',
    },
    { args: ['-g', 'PAG-|FLT-|SRT-'] },
  );
  await target.stop();
  const problems: string[] = [];
  let verdicts: Record<string, string> = {};
  try {
    const matrix = JSON.parse(readFileSync(`${dir}/conformance.json`, 'utf8')) as {
      rules: Array<{ id: string; verdict: string }>;
    };
    verdicts = Object.fromEntries(
      matrix.rules.filter((r) => /^(PAG|FLT|SRT)-/.test(r.id)).map((r) => [r.id, r.verdict]),
    );
  } catch {
    problems.push(`no rule matrix written (exit ${child.status}): ${child.stderr.slice(0, 300)}`);
  }
  for (const [id, verdict] of Object.entries(verdicts)) {
    if (verdict === 'fail') problems.push(`${id} failed on changing data instead of reporting inconclusive`);
  }
  for (const id of ['PAG-TOTAL', 'PAG-PARTITION', 'FLT-STATUS', 'SRT-AMOUNT']) {
    if (verdicts[id] !== 'inconclusive') problems.push(`${id} is ${verdicts[id] ?? 'missing'}, expected inconclusive`);
  }
  return { verdicts, problems };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await runChangingData();
  console.log(
    Object.entries(r.verdicts)
      .map(([id, v]) => `${id}: ${v}`)
      .join('\n'),
  );
  for (const p of r.problems) console.log(`PROBLEM: ${p}`);
  process.exitCode = r.problems.length ? 1 : 0;
}
