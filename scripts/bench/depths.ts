/**
 * `npm run bench`, per depth (--depth quick|standard|deep): a run on the bundled mock, a run against the mock allowing
 * 10 requests a second 40 ms away (a polite remote sandbox), and the share of the proof's faults the depth catches (the
 * fault projects of tests/proof/playwright.config.ts, run at that depth with the proof's fixed seed). Each run is the
 * suite as a user starts it (scripts/run-suite.ts); its reports and console output stay in its folder.
 */
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { DepthName } from '../../core/model/depth.ts';
import { redact } from '../../core/model/secrets.ts';
import { startMock } from '../../mock/index.ts';
import { runSuite } from '../run-suite.ts';
import { freePort, start, stop, suiteEnv } from './children.ts';
import type { DepthFigures, Pacing, Run } from './figures.ts';

const PLAYWRIGHT = 'node_modules/@playwright/test/cli.js';
/** The proof's seed (tests/proof/playwright.config.ts): every depth draws from the same one. */
const PROOF_SEED = '20261122';

/**
 * CPU seconds (user + system) of this process's children that have ended, their own children included (Linux:
 * cutime and cstime of /proc/self/stat, in clock ticks of 1/100 s); undefined elsewhere.
 */
function childrenCpuSeconds(): number | undefined {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8')
      .replace(/^.*\) /, '')
      .split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return undefined;
  }
}

/** One run as a user starts it, in `dir`: wall time, exit code, CPU, and its rule matrix's requests and watch cost. */
export async function measuredRun(dir: string, env: NodeJS.ProcessEnv, timeoutMs = 600_000): Promise<Run> {
  const cpu0 = childrenCpuSeconds();
  const done = await runSuite(env, { timeoutMs });
  const cpu1 = childrenCpuSeconds();
  const run: Run = { exitCode: done.status, seconds: done.seconds };
  if (cpu0 !== undefined && cpu1 !== undefined) run.cpuSeconds = cpu1 - cpu0;
  writeFileSync(`${dir}/bench-output.log`, redact(done.stdout + done.stderr));
  const summary = `${dir}/conformance.json`; // written by the rule matrix
  if (existsSync(summary)) {
    const json = JSON.parse(readFileSync(summary, 'utf8'));
    run.requests = json.requests;
    if (json.watchCost) run.watch = json.watchCost;
  }
  return run;
}

/** A run at `depth` on the bundled mock (in-process, on a free port). */
export async function onMock(depth: DepthName, dir: string): Promise<Run> {
  return measuredRun(dir, { ...suiteEnv(dir, await freePort()), CONFORMANCE_DEPTH: depth });
}

/**
 * A run at `depth` against the mock allowing 10 requests in any second and holding each 40 ms: its wall time, and how
 * much of the allowed rate it used at the mock.
 */
export async function rateLimited(depth: DepthName, dir: string): Promise<NonNullable<DepthFigures['limited']>> {
  const limit = 10;
  const accepted: number[] = [];
  const mock = await startMock({ rateLimit: limit, latencyMs: 40, onRequest: () => accepted.push(performance.now()) });
  try {
    const run = await measuredRun(dir, { ...suiteEnv(dir), ...mock.env, CONFORMANCE_DEPTH: depth }, 1_800_000);
    const pacing: Pacing = {
      limit,
      accepted: accepted.length,
      spanSeconds: ((accepted.at(-1) ?? 0) - (accepted[0] ?? 0)) / 1000,
      wallSeconds: run.seconds,
      refused: (run.requests ?? accepted.length) - accepted.length,
    };
    return { ...run, pacing };
  } finally {
    await mock.stop();
  }
}

/** The proof's fault projects at `depth`: how many faults their rule's checks catch, and which they miss. */
export async function faultsCaught(depth: DepthName, dir: string): Promise<NonNullable<DepthFigures['faults']>> {
  const env = { ...suiteEnv(dir), FC_SEED: PROOF_SEED, MATRIX_ONLY: 'fault:*', CONFORMANCE_DEPTH: depth };
  const p = start(process.execPath, [PLAYWRIGHT, 'test', '-c', 'tests/proof/playwright.config.ts'], { env });
  await p.exited;
  await stop(p);
  const file = 'reports/mutation.json'; // the proof's judge (tests/proof/judge.ts)
  if (!existsSync(file)) throw new Error(`the proof at depth ${depth} wrote no ${file}`);
  copyFileSync(file, `${dir}/mutation.json`);
  const m = JSON.parse(readFileSync(file, 'utf8')) as {
    caught: number;
    total: number;
    faults: Array<{ fault: string; verdict: string }>;
  };
  return {
    caught: m.caught,
    total: m.total,
    missed: m.faults.filter((f) => f.verdict !== 'caught').map((f) => f.fault),
  };
}
