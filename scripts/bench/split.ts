/**
 * `npm run bench -- --split`: where the standard run's time goes next to the framework's floor. Both run under
 * `node --cpu-prof` (every process of Playwright writes a profile: the runner, each worker, each one's module-loader
 * thread, with start and end on one clock), paired; the profiles are read here: each process's span on the run's wall
 * clock and its busy CPU, split by what the CPU did (./split-parts.ts names the parts).
 */
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, start, stop, suiteEnv } from './children.ts';
import { median } from './figures.ts';
import { type Profile, type Split, splitOf, splitText } from './split-parts.ts';

const PLAYWRIGHT = 'node_modules/@playwright/test/cli.js';

/** One run of `config` under --cpu-prof, its profiles kept in `dir`/profiles: the run's split. */
async function profiled(config: string, dir: string, env: NodeJS.ProcessEnv): Promise<Split> {
  const profiles = `${dir}/profiles`;
  rmSync(profiles, { recursive: true, force: true });
  mkdirSync(profiles, { recursive: true });
  const args = ['--cpu-prof', `--cpu-prof-dir=${profiles}`, PLAYWRIGHT, 'test', '-c', config];
  const t0 = performance.now();
  const p = start(process.execPath, args, { env });
  const code = await p.exited;
  const seconds = (performance.now() - t0) / 1000;
  await stop(p);
  await sleep(100); // the last profile is written at exit
  if (code !== 0) throw new Error(`${config} under --cpu-prof exited ${code}`);
  const read = readdirSync(profiles)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f): Profile => {
      // CPU.<date>.<time>.<pid>.<thread>.<sequence>.cpuprofile
      const [, , , pid, thread] = f.split('.');
      return { ...JSON.parse(readFileSync(`${profiles}/${f}`, 'utf8')), pid: Number(pid), thread: Number(thread) };
    });
  return splitOf(read, seconds);
}

/** The floor and the standard run, each under --cpu-prof, `pairs` times alternately; every split, in order. */
export async function measureSplit(pairs: number): Promise<{ floor: Split[]; standard: Split[] }> {
  const out = { floor: [] as Split[], standard: [] as Split[] };
  for (let i = 1; i <= pairs; i++) {
    const dir = `reports/bench/split-${i}`;
    mkdirSync(dir, { recursive: true });
    const floorEnv = { ...suiteEnv(dir), FLOOR_OUTPUT_DIR: `${dir}/floor-results` };
    out.floor.push(await profiled('scripts/bench/floor/playwright.config.ts', dir, floorEnv));
    const env = suiteEnv(dir, await freePort());
    out.standard.push(await profiled('playwright.config.ts', dir, env));
  }
  return out;
}

/**
 * The split's console lines: each pair's floor and standard run, process by process, then the medians of wall time,
 * CPU and the first check's start, and the ratios of the medians.
 */
export function splitReport(s: { floor: Split[]; standard: Split[] }): string[] {
  const lines = s.floor.flatMap((f, i) => [
    ...splitText(`pair ${i + 1}, the floor`, f),
    ...splitText(`pair ${i + 1}, the standard run`, s.standard[i] as Split),
  ]);
  const cpu = (x: Split) => x.processes.reduce((a, p) => a + p.busyMs, 0) / 1000;
  const m = (xs: Split[], f: (x: Split) => number) => median(xs.map(f));
  const [fw, sw] = [m(s.floor, (x) => x.wallSeconds), m(s.standard, (x) => x.wallSeconds)];
  const [fc, sc] = [m(s.floor, cpu), m(s.standard, cpu)];
  const first = (xs: Split[]) => m(xs, (x) => x.firstCheck ?? Number.NaN).toFixed(2);
  lines.push(
    `medians (under --cpu-prof): the floor ${fw.toFixed(2)} s wall, ${fc.toFixed(2)} s CPU, first test at ${first(s.floor)} s; ` +
      `the standard run ${sw.toFixed(2)} s wall, ${sc.toFixed(2)} s CPU, first check at ${first(s.standard)} s: ` +
      `${(sw / fw).toFixed(2)}× in wall time, ${(sc / fc).toFixed(2)}× in CPU`,
  );
  return lines;
}
