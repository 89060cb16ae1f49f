/**
 * `npm run bench [-- --quick] [-- --skip-prism]`: the performance figures of the suite and its mock, all
 * measured in one run on this machine, written to reports/bench.json and summed up in a console table.
 *   1. the full conformance run against the bundled mock (median of 3 wall times, requests, requests/s)
 *   2. the mock's raw capacity (autocannon: 1 and 10 connections, limit=10 and limit=100)
 *   3. the mock against Prism on the same endpoint and load
 *   4. the mock's resident memory before and after 60 s of load
 * and the four targets, each with its value and whether it is met. See docs/performance.md.
 * Every child process is stopped with its process tree on success, error, SIGINT and SIGTERM. No key is
 * printed or written: the Authorization header lives only inside scripts/bench/load.ts's request options.
 * Exit code: 0 when every measurement was taken (targets missed are reported, not fatal), 1 when one could
 * not be taken, 2 for a bad option, 130/143 when interrupted.
 */

import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import dotenv from 'dotenv';
import { KEY_VARS } from '../fixtures/config.ts';
import mockTarget from '../fixtures/mock-target.json' with { type: 'json' };
import { containsSecret, redact, registerSecret } from '../fixtures/secrets.ts';
import { round, stopCurrentLoad } from './bench/load.ts';
import { cpuSnapshot, foreignCpuShare, installCleanup, stopAll, wasInterrupted } from './bench/procs.ts';
import { type Comparison, render, type TargetRow } from './bench/render.ts';
import {
  benchCapacity,
  benchConformance,
  benchMemory,
  benchPrism,
  type CapacityBench,
  type ConformanceBench,
  listPath,
  type MemoryBench,
  type PrismBench,
} from './bench/steps.ts';

const USAGE = `Usage: npm run bench [-- --quick] [-- --skip-prism]

  --quick        a fast smoke: 1 conformance run, 2 s loads, 10 s memory load
  --skip-prism   do not start Prism (the mock/Prism target is then n/a)
  --help         print this help

Writes reports/bench.json (and reports/bench/run-N/ for the conformance runs).`;

const OUTPUT = 'reports/bench.json';

let values: { quick?: boolean; 'skip-prism'?: boolean; help?: boolean };
try {
  ({ values } = parseArgs({
    options: { quick: { type: 'boolean' }, 'skip-prism': { type: 'boolean' }, help: { type: 'boolean' } },
    strict: true,
    allowPositionals: false,
  }));
} catch (error) {
  process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}\n`);
  process.exit(2);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

const quick = values.quick === true;
const skipPrism = values['skip-prism'] === true;
const plan = quick
  ? { conformanceRuns: 1, loadSeconds: 2, memorySeconds: 10, warmUpSeconds: 1 }
  : { conformanceRuns: 3, loadSeconds: 5, memorySeconds: 60, warmUpSeconds: 3 };
const flags = [quick ? '--quick' : '', skipPrism ? '--skip-prism' : ''].filter(Boolean);
const command = `npm run bench${flags.length ? ` -- ${flags.join(' ')}` : ''}`;

for (const key of Object.values(mockTarget.keys)) registerSecret(key);
installCleanup(stopCurrentLoad);

const log = (line: string) => console.log(redact(line));
const errors: string[] = [];
const notes: string[] = [];

/** Runs one measurement; a failure is recorded and the next measurement still runs. */
async function step<T>(title: string, body: () => Promise<T>): Promise<T | null> {
  log(`\n${title}`);
  const before = round(loadavg()[0] ?? 0);
  const cpu = cpuSnapshot();
  try {
    return await body();
  } catch (error) {
    // When interrupted, the signal handler is stopping everything and will exit: start nothing more.
    if (wasInterrupted()) await new Promise(() => {});
    const message = redact(error instanceof Error ? error.message : String(error));
    errors.push(`${title}: ${message}`);
    log(`  ERROR: ${message}`);
    return null;
  } finally {
    if (wasInterrupted()) await new Promise(() => {});
    const share = foreignCpuShare(cpu, cpuSnapshot());
    const otherCpuPercent = share === null ? null : round(share * 100, 1);
    machineLoad.push({ step: title, otherCpuPercent, loadAverage1m: { before, after: round(loadavg()[0] ?? 0) } });
    if (otherCpuPercent !== null)
      log(`  (other processes used ${otherCpuPercent}% of the machine's CPU during this step)`);
  }
}

/**
 * Other work on the machine skews every figure: per step, the share of all cores' CPU time that processes
 * other than the benchmark's used (from /proc/stat and our own CPU time), and the 1-minute load average.
 */
const machineLoad: {
  step: string;
  otherCpuPercent: number | null;
  loadAverage1m: { before: number; after: number };
}[] = [];

/** Names (never values) of .env variables that reach the conformance runs despite CONFORMANCE_PROFILE=mock. */
function envFileOverrides(): string[] {
  if (!existsSync('.env')) return [];
  try {
    const names = Object.keys(dotenv.parse(readFileSync('.env')));
    const ignored = new Set(['API_BASE_URL', ...Object.values(KEY_VARS)]);
    return names.filter((n) => /^(API_|FC_|CONFORMANCE_)/.test(n) && !ignored.has(n) && n !== 'CONFORMANCE_PROFILE');
  } catch {
    return [];
  }
}

const overrides = envFileOverrides();
if (overrides.length)
  notes.push(`.env sets ${overrides.join(', ')}: they apply to the conformance runs and may change the figures`);

const started = performance.now();
const startedAt = new Date();
rmSync('reports/bench', { recursive: true, force: true });
mkdirSync('reports/bench', { recursive: true });
log(
  `npm run bench (${quick ? 'quick' : 'full'}): ${plan.conformanceRuns} conformance run(s), ${plan.loadSeconds} s loads, ` +
    `${plan.memorySeconds} s memory load${skipPrism ? ', Prism skipped' : ''}`,
);

let conformance: ConformanceBench | null;
let capacity: CapacityBench | null;
let prism: PrismBench | null = null;
let memory: MemoryBench | null;
try {
  conformance = await step('1. Conformance run against the bundled mock', () =>
    benchConformance(plan.conformanceRuns, log),
  );
  capacity = await step('2. Mock capacity (autocannon)', () =>
    benchCapacity(plan.loadSeconds, plan.warmUpSeconds, log),
  );
  if (!skipPrism) prism = await step('3. Mock vs Prism', () => benchPrism(plan.loadSeconds, plan.warmUpSeconds, log));
  memory = await step(`4. Mock memory under ${plan.memorySeconds} s of load`, () =>
    benchMemory(plan.memorySeconds, log),
  );
} finally {
  await stopAll();
}
const totalSeconds = round((performance.now() - started) / 1000, 1);

// --- derived figures ------------------------------------------------------------------------------------

const capacityRun = (limit: number, connections: number) =>
  capacity?.runs.find((r) => r.connections === connections && r.path === listPath(limit));
const oneConnection = capacityRun(10, 1);
const suiteRatio =
  conformance?.requestsPerSecond != null && oneConnection && oneConnection.requestsPerSecond > 0
    ? round(conformance.requestsPerSecond / oneConnection.requestsPerSecond, 3)
    : null;

const comparison: Comparison[] = [];
for (const p of prism?.runs ?? []) {
  const m = capacityRun(10, p.connections);
  if (!m) continue;
  comparison.push({
    connections: p.connections,
    mockRequestsPerSecond: m.requestsPerSecond,
    prismRequestsPerSecond: p.requestsPerSecond,
    ratio: p.requestsPerSecond > 0 ? round(m.requestsPerSecond / p.requestsPerSecond, 1) : Number.POSITIVE_INFINITY,
    mockP99Ms: m.latencyMs.p99,
    prismP99Ms: p.latencyMs.p99,
    prismNon2xx: p.non2xx,
  });
}
const prismTen = comparison.find((c) => c.connections === 10);

if (conformance?.failedRuns) {
  notes.push(
    `${conformance.failedRuns} of ${conformance.runs.length} conformance run(s) FAILED (exit code ≠ 0): see reports/bench/run-N/bench-output.log`,
  );
}
if (conformance?.runs.some((r) => !r.mockPortFreed)) notes.push('a conformance run left its mock port in use');
if (capacity?.flagged)
  notes.push(`${capacity.flagged} mock load(s) got non-2xx answers, errors or timeouts (must be 0)`);
if (prism?.non2xx) notes.push(`Prism answered ${prism.non2xx} non-2xx responses`);
if (memory && memory.load.non2xx + memory.load.errors + memory.load.timeouts > 0) {
  notes.push('the memory load got non-2xx answers, errors or timeouts (must be 0)');
}
const busiest = Math.max(0, ...machineLoad.map((l) => l.otherCpuPercent ?? 0));
if (busiest >= 10) {
  notes.push(
    `other processes used up to ${busiest.toFixed(0)}% of the machine's CPU during a step ` +
      `(${machineLoad.map((l) => `${l.step.slice(0, 2)} ${l.otherCpuPercent ?? '?'}%`).join(', ')}; machine.load in the JSON): ` +
      'the figures are pessimistic',
  );
}
if (quick) notes.push('--quick: 1 conformance run, 2 s loads and a 10 s memory load; not the figures of record');

const targets: TargetRow[] = [
  {
    name: 'full conformance run (median wall)',
    value: conformance?.wallSeconds?.median ?? null,
    shown: conformance?.wallSeconds ? `${conformance.wallSeconds.median.toFixed(2)} s` : '—',
    target: '≤ 10 s',
    met: conformance?.wallSeconds ? conformance.wallSeconds.median <= 10 : null,
    note: conformance?.wallSeconds ? undefined : 'not measured',
  },
  {
    name: 'suite rate / 1-conn loopback rate',
    value: suiteRatio,
    shown:
      suiteRatio === null
        ? '—'
        : `${suiteRatio.toFixed(3)} (${conformance?.requestsPerSecond?.toFixed(0)} / ${Math.round(oneConnection?.requestsPerSecond ?? 0)} req/s)`,
    target: '≥ 0.5',
    met: suiteRatio === null ? null : suiteRatio >= 0.5,
    note: suiteRatio === null ? 'not measured' : undefined,
  },
  {
    name: 'mock / Prism throughput (10 conns)',
    value: prismTen?.ratio ?? null,
    shown: prismTen ? `${prismTen.ratio.toFixed(1)}×` : '—',
    target: '≥ 5×',
    met: prismTen ? prismTen.ratio >= 5 : null,
    note: prismTen
      ? undefined
      : skipPrism
        ? '--skip-prism'
        : prism && !prism.started
          ? 'Prism did not start'
          : 'not measured',
  },
  {
    name: 'mock memory growth under load',
    value: memory?.growthPercent ?? null,
    shown: memory ? `${memory.growthPercent >= 0 ? '+' : ''}${memory.growthPercent.toFixed(1)}%` : '—',
    target: '< 20%',
    met: memory ? memory.growthPercent < 20 : null,
    note: memory ? undefined : 'not measured',
  },
];

const machine = {
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model ?? 'unknown',
  memoryGB: round(totalmem() / 1024 ** 3, 1),
  node: process.version,
  platform: `${process.platform} ${process.arch}`,
  load: machineLoad,
};

const report = {
  command,
  mode: quick ? 'quick' : 'full',
  date: startedAt.toISOString(),
  machine,
  plan,
  totalSeconds,
  endpoint: `GET ${listPath(10).replace(/limit=10$/, 'limit={10|100}')} with a Bearer test key of the mock (not recorded)`,
  conformance,
  capacity,
  suiteVsCapacity: {
    suiteRequestsPerSecond: conformance?.requestsPerSecond ?? null,
    oneConnectionLimit10RequestsPerSecond: oneConnection?.requestsPerSecond ?? null,
    ratio: suiteRatio,
  },
  prism: skipPrism
    ? { skipped: true }
    : prism
      ? { skipped: false, ...prism, comparison }
      : { skipped: false, error: 'not measured' },
  memory,
  targets,
  notes,
  errors,
};

if (containsSecret(JSON.stringify(report))) {
  // Never expected: nothing above holds a key. Redact rather than write one, and say so.
  notes.push('a key-shaped string was redacted from reports/bench.json');
}
writeFileSync(OUTPUT, redact(`${JSON.stringify(report, null, 2)}\n`));

const header =
  `${command} — ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC, ${machine.cpus} CPUs (${machine.cpuModel}), ` +
  `Node ${machine.node}, total ${totalSeconds} s`;
console.log('');
console.log(
  redact(
    render({
      header,
      conformance,
      capacity,
      suiteRatio,
      prism:
        prism && !skipPrism
          ? { ...prism, skipped: false, comparison }
          : skipPrism
            ? { ...emptyPrism(), skipped: true, comparison }
            : null,
      memory,
      memorySeconds: plan.memorySeconds,
      targets,
      notes,
    }),
  ),
);
for (const e of errors) console.log(`ERROR: ${e}`);
console.log(`\nWrote ${OUTPUT}`);
process.exitCode = errors.length ? 1 : 0;

function emptyPrism(): PrismBench {
  return { command: '', started: false, error: null, startupSeconds: null, warmUpSeconds: 0, runs: [], non2xx: 0 };
}
