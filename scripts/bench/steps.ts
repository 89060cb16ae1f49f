/**
 * The four measurements of `npm run bench`: the conformance run, the mock's raw capacity, the mock against
 * Prism, and the mock's memory under sustained load. Each starts its own processes and stops them before
 * it returns, whatever happens.
 */
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { stripVTControlCharacters } from 'node:util';
import mockTarget from '../../fixtures/mock-target.json' with { type: 'json' };
import { redact } from '../../fixtures/secrets.ts';
import { type LoadResult, round, runLoad } from './load.ts';
import {
  assertNodeProcess,
  type Child,
  describeExit,
  freePort,
  memoryKB,
  portIsFree,
  start,
  waitUntilAnswers,
} from './procs.ts';

const HOST = '127.0.0.1';
const MOCK_SCRIPT = 'mock/cli.ts';
export const PLAYWRIGHT_CLI = 'node_modules/@playwright/test/cli.js';
export const PRISM_BIN = 'node_modules/.bin/prism';
/** The listing endpoint of the sandbox merchant (the merchant id is not a secret; the key is never here). */
export const listPath = (limit: number) =>
  `/payments/n1/merchant/${mockTarget.merchants.sandbox}/payments?limit=${limit}`;
/** The Authorization header value for every load: the mock's test key. Never logged. */
const authorization = () => `Bearer ${mockTarget.keys.test}`;

export type Log = (line: string) => void;

export interface Stats {
  median: number;
  min: number;
  max: number;
}

export function stats(values: number[]): Stats | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
  return { median: round(median), min: round(sorted[0] ?? 0), max: round(sorted[sorted.length - 1] ?? 0) };
}

// ---------------------------------------------------------------------------------------------------------
// 1. The full conformance run against the bundled mock
// ---------------------------------------------------------------------------------------------------------

export interface ConformanceRun {
  run: number;
  exitCode: number | null;
  signal: string | null;
  wallSeconds: number;
  /** `requests` of <reportsDir>/conformance.json (null when the run wrote none). */
  requests: number | null;
  requestsPerSecond: number | null;
  /** The suite's own status and duration (rule-matrix reporter: from onBegin to onEnd, without start-up). */
  suiteStatus: string | null;
  suiteSeconds: number | null;
  verdicts: Record<string, number> | null;
  /** Where the wall time goes (from results.json): Playwright's own run duration, and the sum of the test durations over all workers. */
  playwrightSeconds: number | null;
  testSecondsSummed: number | null;
  tests: number | null;
  /** Playwright's console output (redacted). */
  log: string;
  /** The webServer's port was free again after the run (no leaked mock). */
  mockPortFreed: boolean;
}

export interface ConformanceBench {
  command: string;
  runs: ConformanceRun[];
  wallSeconds: Stats | null;
  /** Median of the runs' request counts. */
  requests: number | null;
  /** Median requests / median wall time. */
  requestsPerSecond: number | null;
  failedRuns: number;
}

/** The suite's environment: the bundled mock on `port`, reports in `reportsDir`, no outside target settings. */
function suiteEnv(reportsDir: string, port: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) {
    if (/^(API_|CONFORMANCE_|FC_)|_MERCHANT_ID$/.test(name)) delete env[name];
  }
  // CONFORMANCE_PROFILE=mock: the bundled mock even if a .env names another API_BASE_URL.
  env.CONFORMANCE_PROFILE = 'mock';
  env.CONFORMANCE_REPORTS_DIR = reportsDir;
  env.CONFORMANCE_MOCK_PORT = String(port);
  return env;
}

export async function benchConformance(runs: number, log: Log): Promise<ConformanceBench> {
  const results: ConformanceRun[] = [];
  for (let run = 1; run <= runs; run++) {
    const reportsDir = `reports/bench/run-${run}`;
    rmSync(reportsDir, { recursive: true, force: true });
    mkdirSync(reportsDir, { recursive: true });
    const port = await freePort();
    const t0 = performance.now();
    const child = start('conformance', process.execPath, [PLAYWRIGHT_CLI, 'test', '-c', 'playwright.config.ts'], {
      env: suiteEnv(reportsDir, port),
      stdout: 'capture',
      stderr: 'capture',
    });
    // On SIGINT/SIGTERM the cleanup handler stops it (and its webServer and workers) with its whole tree.
    const exit = await child.exited;
    const wallSeconds = round((performance.now() - t0) / 1000);
    const output = redact(child.output());
    writeFileSync(`${reportsDir}/bench-output.log`, output);
    const summary = readJson(`${reportsDir}/conformance.json`);
    const requests = typeof summary?.requests === 'number' ? summary.requests : null;
    const result: ConformanceRun = {
      run,
      exitCode: exit.code,
      signal: exit.signal,
      wallSeconds,
      requests,
      requestsPerSecond: requests === null ? null : round(requests / wallSeconds, 1),
      suiteStatus: typeof summary?.status === 'string' ? summary.status : null,
      suiteSeconds: typeof summary?.durationSeconds === 'number' ? summary.durationSeconds : null,
      verdicts: isRecord(summary?.verdicts) ? (summary.verdicts as Record<string, number>) : null,
      ...testTimes(`${reportsDir}/results.json`),
      log: `${reportsDir}/bench-output.log`,
      mockPortFreed: await portIsFree(port),
    };
    results.push(result);
    log(
      `  run ${run}/${runs}: ${wallSeconds.toFixed(1)} s wall, ${describeExit(exit)}${exit.code === 0 ? '' : ' (FAILED)'}, ` +
        `${requests ?? 'no'} requests${result.suiteSeconds !== null ? `, suite ${result.suiteSeconds} s` : ''}` +
        `${result.mockPortFreed ? '' : ', mock port still in use after the run'}`,
    );
    if (exit.code !== 0) {
      const tail = output.trim().split('\n').slice(-8);
      for (const line of tail) log(`    | ${line}`);
    }
  }
  const wall = stats(results.map((r) => r.wallSeconds));
  const requests = stats(results.flatMap((r) => (r.requests === null ? [] : [r.requests])));
  return {
    command: `node ${PLAYWRIGHT_CLI} test -c playwright.config.ts`,
    runs: results,
    wallSeconds: wall,
    requests: requests?.median ?? null,
    requestsPerSecond: wall && requests ? round(requests.median / wall.median, 1) : null,
    failedRuns: results.filter((r) => r.exitCode !== 0).length,
  };
}

/** Playwright's run duration and the summed durations of the tests, from its JSON reporter's file. */
function testTimes(file: string): Pick<ConformanceRun, 'playwrightSeconds' | 'testSecondsSummed' | 'tests'> {
  const results = readJson(file);
  const stats = isRecord(results?.stats) ? results.stats : undefined;
  const durations: number[] = [];
  const walk = (suite: unknown): void => {
    if (!isRecord(suite)) return;
    for (const spec of Array.isArray(suite.specs) ? suite.specs : []) {
      for (const test of isRecord(spec) && Array.isArray(spec.tests) ? spec.tests : []) {
        for (const r of isRecord(test) && Array.isArray(test.results) ? test.results : []) {
          if (isRecord(r) && typeof r.duration === 'number') durations.push(r.duration);
        }
      }
    }
    for (const child of Array.isArray(suite.suites) ? suite.suites : []) walk(child);
  };
  for (const suite of Array.isArray(results?.suites) ? results.suites : []) walk(suite);
  return {
    playwrightSeconds: typeof stats?.duration === 'number' ? round(stats.duration / 1000) : null,
    testSecondsSummed: durations.length ? round(durations.reduce((a, b) => a + b, 0) / 1000) : null,
    tests: durations.length || null,
  };
}

function readJson(file: string): Record<string, unknown> | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const value: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// ---------------------------------------------------------------------------------------------------------
// The mock as a child process
// ---------------------------------------------------------------------------------------------------------

export interface MockProcess {
  child: Child;
  baseUrl: string;
  startupSeconds: number;
}

/** `node --import tsx mock/cli.ts --port P --quiet`, spawned directly (no npx, no shell): its pid is node's. */
export async function startMockProcess(): Promise<MockProcess> {
  const port = await freePort();
  const child = start('mock', process.execPath, ['--import', 'tsx', MOCK_SCRIPT, '--port', String(port), '--quiet'], {
    stderr: 'capture',
  });
  const baseUrl = `http://${HOST}:${port}`;
  try {
    const startupSeconds = await waitUntilAnswers(`${baseUrl}/merchant/status`, child, 30_000);
    assertNodeProcess(child.pid, MOCK_SCRIPT);
    return { child, baseUrl, startupSeconds: round(startupSeconds) };
  } catch (error) {
    await child.stop();
    throw new Error(`${error instanceof Error ? error.message : String(error)}${stderrTail(child)}`);
  }
}

function stderrTail(child: Child): string {
  const tail = redact(child.output()).trim().split('\n').slice(-5).join(' | ');
  return tail ? ` — ${tail}` : '';
}

/** A short load that is not measured, so that the first measured run does not pay for JIT warm-up. */
async function warmUp(baseUrl: string, seconds: number): Promise<void> {
  if (seconds > 0) await runLoad({ baseUrl, path: listPath(10), connections: 10, seconds }, authorization());
}

function describeLoad(who: string, r: LoadResult): string {
  const bad = r.non2xx + r.errors + r.timeouts;
  return (
    `  ${who} ${r.path.replace(/^.*\?/, '')} ×${r.connections}: ${Math.round(r.requestsPerSecond)} req/s, ` +
    `p99 ${r.latencyMs.p99} ms, non-2xx ${r.non2xx}${r.errors || r.timeouts ? `, errors ${r.errors}, timeouts ${r.timeouts}` : ''}` +
    `${bad ? ' (FLAG)' : ''}`
  );
}

// ---------------------------------------------------------------------------------------------------------
// 2. The mock's raw capacity
// ---------------------------------------------------------------------------------------------------------

export interface CapacityBench {
  pid: number;
  startupSeconds: number;
  warmUpSeconds: number;
  runs: LoadResult[];
  /** Runs with a non-2xx answer, an error or a timeout: must be none. */
  flagged: number;
  rssKBAfter: number;
}

export async function benchCapacity(seconds: number, warmUpSeconds: number, log: Log): Promise<CapacityBench> {
  const mock = await startMockProcess();
  try {
    log(`  mock pid ${mock.child.pid} (node itself), answering after ${mock.startupSeconds} s`);
    await warmUp(mock.baseUrl, warmUpSeconds);
    const runs: LoadResult[] = [];
    for (const limit of [10, 100]) {
      for (const connections of [1, 10]) {
        const r = await runLoad(
          { baseUrl: mock.baseUrl, path: listPath(limit), connections, seconds },
          authorization(),
        );
        runs.push(r);
        log(describeLoad('mock ', r));
      }
    }
    return {
      pid: mock.child.pid,
      startupSeconds: mock.startupSeconds,
      warmUpSeconds,
      runs,
      flagged: runs.filter((r) => r.non2xx + r.errors + r.timeouts > 0).length,
      rssKBAfter: memoryKB(mock.child.pid),
    };
  } finally {
    await mock.child.stop();
  }
}

// ---------------------------------------------------------------------------------------------------------
// 3. Prism on the same endpoint and load
// ---------------------------------------------------------------------------------------------------------

export interface PrismBench {
  command: string;
  started: boolean;
  /** Why Prism could not be measured (start failure, crash…). */
  error: string | null;
  startupSeconds: number | null;
  warmUpSeconds: number;
  runs: LoadResult[];
  non2xx: number;
}

export async function benchPrism(seconds: number, warmUpSeconds: number, log: Log): Promise<PrismBench> {
  const port = await freePort();
  const args = ['mock', '-p', String(port), '-h', HOST, 'schemas/openapi.yaml'];
  const bench: PrismBench = {
    command: `${PRISM_BIN} mock -p <port> -h ${HOST} schemas/openapi.yaml`,
    started: false,
    error: null,
    startupSeconds: null,
    warmUpSeconds,
    runs: [],
    non2xx: 0,
  };
  // Prism logs every request to stdout: it goes to a temporary file (read only if Prism fails), not to a pipe.
  const dir = mkdtempSync(join(tmpdir(), 'bench-prism-'));
  const logFile = join(dir, 'prism.log');
  const fd = openSync(logFile, 'w');
  let child: Child | undefined;
  try {
    child = start('prism', PRISM_BIN, args, { stdout: fd, stderr: fd });
    closeSync(fd);
    const baseUrl = `http://${HOST}:${port}`;
    try {
      bench.startupSeconds = round(await waitUntilAnswers(`${baseUrl}/merchant/status`, child, 60_000));
      bench.started = true;
    } catch (error) {
      const tail = failureLines(redact(readFileSync(logFile, 'utf8')));
      bench.error = `Prism did not start: ${error instanceof Error ? error.message : String(error)}${tail ? ` — ${tail}` : ''}`;
      log(`  ${bench.error}`);
      return bench;
    }
    log(`  prism pid ${child.pid}, answering after ${bench.startupSeconds} s`);
    await warmUp(baseUrl, warmUpSeconds);
    for (const connections of [1, 10]) {
      const r = await runLoad({ baseUrl, path: listPath(10), connections, seconds }, authorization());
      bench.runs.push(r);
      log(describeLoad('prism', r));
      if (!child.running) {
        bench.error = `Prism exited during the load (${describeExit(child.exit)})`;
        break;
      }
    }
    bench.non2xx = bench.runs.reduce((n, r) => n + r.non2xx, 0);
    return bench;
  } catch (error) {
    bench.error = `Prism could not be measured: ${redact(error instanceof Error ? error.message : String(error))}`;
    log(`  ${bench.error}`);
    return bench;
  } finally {
    if (child) await child.stop();
    else closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The telling lines of a failed start's log: those saying fatal/error (strip ANSI), else the last ones. */
function failureLines(text: string): string {
  const lines = stripVTControlCharacters(text)
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const i = lines.findIndex((l) => /fatal|error/i.test(l));
  return (i >= 0 ? lines.slice(i, i + 2) : lines.slice(-3)).join(' | ');
}

// ---------------------------------------------------------------------------------------------------------
// 4. The mock's resident memory under sustained load
// ---------------------------------------------------------------------------------------------------------

export interface MemoryBench {
  pid: number;
  /** VmRSS after the mock answers and 1 s of rest, before any load. */
  startKB: number;
  /** VmRSS right after the load ends. */
  endKB: number;
  growthPercent: number;
  /** VmHWM: the peak resident size over the process's life. */
  peakKB: number;
  /** VmRSS sampled during the load, seconds since the load began. */
  samples: { seconds: number; rssKB: number }[];
  /** Growth from the first sample taken under load to the end: excludes the one-off warm-up. */
  growthAfterFirstSamplePercent: number | null;
  load: LoadResult;
}

export async function benchMemory(seconds: number, log: Log): Promise<MemoryBench> {
  const mock = await startMockProcess();
  const pid = mock.child.pid;
  let sampler: NodeJS.Timeout | undefined;
  try {
    await sleep(1000);
    const startKB = memoryKB(pid);
    log(`  mock pid ${pid} (node itself): VmRSS at start ${mb(startKB)} MB; ${seconds} s of load at 10 connections…`);
    const samples: MemoryBench['samples'] = [];
    const t0 = performance.now();
    const every = Math.max(1000, Math.round((seconds * 1000) / 12));
    sampler = setInterval(() => {
      try {
        samples.push({ seconds: round((performance.now() - t0) / 1000, 1), rssKB: memoryKB(pid) });
      } catch {
        // The process is gone; the load will report it.
      }
    }, every);
    const load = await runLoad(
      { baseUrl: mock.baseUrl, path: listPath(10), connections: 10, seconds },
      authorization(),
    );
    clearInterval(sampler);
    const endKB = memoryKB(pid);
    const peakKB = memoryKB(pid, 'VmHWM');
    samples.push({ seconds: round((performance.now() - t0) / 1000, 1), rssKB: endKB });
    const first = samples[0];
    const result: MemoryBench = {
      pid,
      startKB,
      endKB,
      growthPercent: round(((endKB - startKB) / startKB) * 100, 1),
      peakKB,
      samples,
      growthAfterFirstSamplePercent:
        first && samples.length > 1 ? round(((endKB - first.rssKB) / first.rssKB) * 100, 1) : null,
      load,
    };
    log(describeLoad('mock ', load));
    log(
      `  VmRSS ${mb(startKB)} → ${mb(endKB)} MB (${signed(result.growthPercent)}%), peak ${mb(peakKB)} MB; ` +
        `samples: ${samples.map((s) => mb(s.rssKB)).join(' ')}`,
    );
    return result;
  } finally {
    if (sampler) clearInterval(sampler);
    await mock.child.stop();
  }
}

export const mb = (kB: number) => (kB / 1024).toFixed(1);
export const signed = (n: number) => `${n >= 0 ? '+' : ''}${n.toFixed(1)}`;
