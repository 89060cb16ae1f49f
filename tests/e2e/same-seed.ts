/**
 * One seed, the same requests (npm test): the suite twice against the bundled mock with one FC_SEED, and once
 * with another. The mock records each request (method, path and query, and which key it carried, never the
 * key). The two runs with one seed must send the same SET of distinct requests (counts may differ: each worker
 * memoises what it enumerated, and which checks share a worker varies), and the other seed a different set.
 */
import { readFileSync, rmSync } from 'node:fs';
import { startMock } from '../../mock/index.ts';
import { againstMock, runSuite } from '../../scripts/run-suite.ts';

export interface SameSeedResult {
  seeds: [number, number];
  /** Distinct requests of each run: seed A, seed A again, seed B. */
  sizes: [number, number, number];
  problems: string[];
}

async function requestsOf(seed: number, dir: string): Promise<{ set: Set<string>; status: number | null }> {
  const set = new Set<string>();
  const mock = await startMock({ port: 0, onRequest: (r) => void set.add(`${r.method} ${r.target} [${r.auth}]`) });
  rmSync(dir, { recursive: true, force: true });
  try {
    const run = await runSuite({
      ...process.env,
      ...againstMock(mock.env),
      CONFORMANCE_REPORTS_DIR: dir,
      FC_SEED: String(seed),
      FORCE_COLOR: '0',
    });
    const recorded = JSON.parse(readFileSync(`${dir}/conformance.json`, 'utf8')) as { seed: number | null };
    if (recorded.seed !== seed) set.add(`conformance.json says seed ${recorded.seed}, not ${seed}`);
    return { set, status: run.status };
  } finally {
    await mock.stop();
  }
}

const difference = (a: Set<string>, b: Set<string>) => [...a].filter((x) => !b.has(x));

export async function runSameSeed(seeds: [number, number] = [123456789, 987654321]): Promise<SameSeedResult> {
  const [a, b] = seeds;
  const first = await requestsOf(a, 'reports/same-seed/a1');
  const again = await requestsOf(a, 'reports/same-seed/a2');
  const other = await requestsOf(b, 'reports/same-seed/b');
  const problems: string[] = [];
  for (const [name, run] of [
    ['first', first],
    ['second', again],
    ['other-seed', other],
  ] as const) {
    if (run.status !== 0) problems.push(`the ${name} run exited ${run.status}, expected 0`);
  }
  const onlyFirst = difference(first.set, again.set);
  const onlyAgain = difference(again.set, first.set);
  if (onlyFirst.length || onlyAgain.length) {
    problems.push(
      `seed ${a} twice sent different requests: ${onlyFirst.length} only in the first run (e.g. ${onlyFirst[0]}), ` +
        `${onlyAgain.length} only in the second (e.g. ${onlyAgain[0]})`,
    );
  }
  if (difference(other.set, first.set).length === 0 && difference(first.set, other.set).length === 0) {
    problems.push(`seeds ${a} and ${b} sent the same requests: the seed does not reach the generators`);
  }
  return { seeds, sizes: [first.set.size, again.set.size, other.set.size], problems };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await runSameSeed();
  console.log(`distinct requests: ${r.sizes.join(', ')}`);
  for (const p of r.problems) console.log(`PROBLEM: ${p}`);
  process.exitCode = r.problems.length ? 1 : 0;
}
