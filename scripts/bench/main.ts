/**
 * `npm run bench [-- --quick] [-- --skip-prism]`: the figures and targets of docs/performance.md, measured in one run,
 * written to reports/bench.json and printed as one table. Every child leads its own process group, stopped as a group
 * on success, error, SIGINT and SIGTERM. No key is printed or written: the Authorization header exists only in
 * autocannon's request options. Exit: 0 all measured (a missed target is a finding), 1 one was not, 2 bad option.
 */
import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type AddressInfo, createServer } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { paymentsPath } from '../../core/model/listing.ts';
import { redact, registerSecret } from '../../core/model/secrets.ts';
import { IDENTITY, startMock as startMockServer } from '../../mock/index.ts';
import { runSuite } from '../run-suite.ts';

/** The wall time of record (docs/performance.md), measured before the suite gained its deeper checks. */
export const RECORD = { seconds: 5.17, date: '2026-11-22' };
export const USAGE = 'Usage: npm run bench [-- --quick] [-- --skip-prism]';
const PATH = `${paymentsPath(IDENTITY.merchants.sandbox)}?limit=10`;
const PLAYWRIGHT = 'node_modules/@playwright/test/cli.js';
const log = (line: string) => console.log(redact(line));

/** The options and what they mean in runs and seconds. Throws on an unknown option or an argument. */
export function parseOptions(args: string[]) {
  const flag = { type: 'boolean' } as const;
  const { values } = parseArgs({ args, strict: true, options: { quick: flag, 'skip-prism': flag, help: flag } });
  const plan = values.quick ? { runs: 3, load: 2, warmUp: 1, memory: 10 } : { runs: 5, load: 5, warmUp: 3, memory: 60 };
  return { quick: !!values.quick, skipPrism: !!values['skip-prism'], help: !!values.help, plan };
}

export function median(xs: readonly number[]): number {
  const [s, mid] = [[...xs].sort((a, b) => a - b), Math.floor(xs.length / 2)];
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

export type Run = {
  seconds: number;
  exitCode: number | null;
  requests?: number;
  /** CPU seconds of the run's whole process tree (Linux), and what watching every answer took of it (ms). */
  cpuSeconds?: number;
  watch?: { observeMs: number; keyScanMs: number; judgeMs: number };
};
export type Runs = { runs: Run[]; median: number; min: number; max: number; requests?: number };
/** Wall times (median, min, max) and the median of the requests the runs reported. */
export function runsOf(runs: Run[]): Runs {
  const [s, r] = [runs.map((x) => x.seconds), runs.flatMap((x) => x.requests ?? [])];
  const requests = r.length > 0 ? median(r) : undefined;
  return { runs, median: median(s), min: Math.min(...s), max: Math.max(...s), requests };
}
/** autocannon's own figures: mean requests/s of its per-second samples, p99 latency (ms), failures. */
export type Load = { rps: number; p99: number; non2xx: number; errors: number; timeouts: number };
/** Each figure, if measured; `prism` says why when it was not. */
/**
 * The run against a rate-limited, distant mock (8 requests in any second, 40 ms away): the requests it accepted, the
 * time from the first to the last at the target, the whole run's wall time, and the requests refused with 429.
 */
export type Pacing = { limit: number; accepted: number; spanSeconds: number; wallSeconds: number; refused: number };
export type Figures = {
  conformance?: Runs;
  startup?: Runs;
  mock1?: Load;
  mock10?: Load;
  prism?: Load | string;
  pacing?: Pacing;
} & {
  /** Resident size, and (when known) the heap in use after a full GC: a leak grows the second, not only the first. */
  memory?: { startMB: number; endMB: number; seconds: number; heapStartMB?: number; heapEndMB?: number };
};

/**
 * What watching every answer (core/run/watch.ts) took of the full runs' CPU, in percent: all of it (keeping the
 * answers with their key scan, and judging them), and the record provenance alone (the key scan is KEY-SECRET's).
 */
export function watchShare(runs: readonly Run[]): { all: number; provenance: number } | undefined {
  const measured = runs.filter((r) => r.cpuSeconds && r.watch);
  if (measured.length === 0) return undefined;
  const cpu = measured.reduce((n, r) => n + (r.cpuSeconds as number) * 1000, 0);
  const sum = (f: (w: NonNullable<Run['watch']>) => number) =>
    measured.reduce((n, r) => n + f(r.watch as NonNullable<Run['watch']>), 0);
  const all = sum((w) => w.observeMs + w.judgeMs);
  return { all: (all / cpu) * 100, provenance: ((all - sum((w) => w.keyScanMs)) / cpu) * 100 };
}
export type Row = { measure: string; value: string; target?: string; met?: boolean };

const runsText = (r?: Runs) => {
  const exits = r?.runs.map((x) => x.exitCode ?? 'killed').join(' ');
  return r ? `median ${r.median.toFixed(2)} s (${r.min.toFixed(2)}–${r.max.toFixed(2)}), exit ${exits}` : '—';
};
export const loadText = (l?: Load | string) => {
  if (typeof l !== 'object') return l ?? '—';
  const flag = l.non2xx + l.errors + l.timeouts > 0 ? ' FLAG' : '';
  return `${l.rps} req/s, p99 ${l.p99} ms, non-2xx ${l.non2xx}, errors ${l.errors}, timeouts ${l.timeouts}${flag}`;
};
const percent = (n: number) => `${n >= 0 ? '+' : ''}${n.toFixed(1)} %`;
/** The share of the allowed rate a run used at the target: accepted requests over the time they spanned. */
export const usedRate = (p: Pacing) => ((p.accepted - 1) / (p.spanSeconds * p.limit)) * 100;
const pacingText = (p: Pacing) =>
  `used ${usedRate(p).toFixed(1)} % of the allowed rate (${p.accepted} requests in ${p.spanSeconds.toFixed(1)} s at ` +
  `the target, ${p.refused} refused with 429; the whole run ${(p.wallSeconds / (p.accepted / p.limit)).toFixed(2)} × requests / limit)`;
type Goal = [measure: string, target: string, value: number | undefined, shown: string, met: boolean, why?: string];
const goal = ([measure, target, value, shown, met, why = 'not measured']: Goal): Row =>
  value === undefined || Number.isNaN(value) ? { measure, value: why, target } : { measure, value: shown, target, met };
const n = (x: number | undefined) => x ?? Number.NaN;

/** Every figure and target, in table order; a target is met or not only when its value was measured. */
export function rows(f: Figures): Row[] {
  const { conformance: c, startup: s, memory: m } = f;
  const prism = typeof f.prism === 'object' ? f.prism : undefined;
  const change = (from: number, to: number) => ((to - from) / from) * 100;
  const [ratio, vsRecord] = [c && s && c.median / s.median, c && change(RECORD.seconds, c.median)];
  const [vsPrism, growth] = [prism && f.mock10 && f.mock10.rps / prism.rps, m && change(m.startMB, m.endMB)];
  const heap =
    m?.heapEndMB === undefined ? '' : `; heap after GC ${m.heapStartMB?.toFixed(1)} → ${m.heapEndMB.toFixed(1)} MB`;
  const memory = `${m?.startMB.toFixed(1)} → ${m?.endMB.toFixed(1)} MB over ${m?.seconds} s (${percent(n(growth))})${heap}`;
  const why = typeof f.prism === 'string' ? f.prism : undefined;
  const share = c && watchShare(c.runs);
  const [times, record] = [`${ratio?.toFixed(2)}×`, `full run vs ${RECORD.seconds} s (${RECORD.date})`];
  return [
    { measure: `full conformance run, wall (${c?.runs.length ?? 0} runs)`, value: runsText(c) },
    { measure: `playwright test --list, wall (${s?.runs.length ?? 0} runs)`, value: runsText(s) },
    goal(['full run / playwright test --list (medians, paired)', '≤ 2×', ratio, times, n(ratio) <= 2]),
    goal([record, '≤ +20 %', vsRecord, percent(n(vsRecord)), n(vsRecord) <= 20]),
    goal(['requests of the default run', '≤ 1,500', c?.requests, String(c?.requests), n(c?.requests) <= 1500]),
    goal([
      "watching every answer: share of the full runs' CPU",
      '< 5 %',
      share?.all,
      `${share?.all.toFixed(1)} % (record provenance alone ${share?.provenance.toFixed(1)} %, the rest the key scan)`,
      n(share?.all) < 5,
      'not measured (needs /proc: Linux)',
    ]),
    goal([
      'rate-limited sandbox (8/s, 40 ms)',
      '≥ 90 %',
      f.pacing && usedRate(f.pacing),
      f.pacing ? pacingText(f.pacing) : '',
      f.pacing ? usedRate(f.pacing) >= 90 : false,
    ]),
    { measure: 'mock, 1 connection', value: loadText(f.mock1) },
    { measure: 'mock, 10 connections', value: loadText(f.mock10) },
    { measure: 'Prism, 10 connections', value: loadText(f.prism) },
    goal(['mock / Prism, 10 connections', '≥ 5×', vsPrism, `${vsPrism?.toFixed(1)}×`, n(vsPrism) >= 5, why]),
    goal(['mock memory (rss) under load', '< 20 %', growth, memory, n(growth) < 20]),
  ];
}

export function render(rs: Row[]): string {
  const met = (r: Row) => (r.met === undefined ? (r.target ? 'n/a' : '') : r.met ? 'yes' : 'NO');
  const cells = [['measure', 'value', 'target', 'met'], ...rs.map((r) => [r.measure, r.value, r.target ?? '', met(r)])];
  const widths = [0, 1, 2, 3].map((i) => Math.max(...cells.map((r) => (r[i] as string).length)));
  const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ');
  return cells.map(line).join('\n').replace(/ +$/gm, '');
}

// Child processes: each leads its own process group and is stopped as a group.
type Proc = { child: ChildProcess; exited: Promise<number | null> };
const live = new Set<Proc>();
let interrupted = false;

function start(command: string, args: string[], opts: SpawnOptions = {}): Proc {
  if (interrupted) throw new Error('interrupted');
  const child = spawn(command, args, { stdio: 'ignore', ...opts, detached: true });
  const exited = new Promise<number | null>((done) => child.once('exit', done).once('error', () => done(null)));
  const proc = { child, exited };
  live.add(proc);
  return proc;
}
function signalGroup(p: Proc, signal: NodeJS.Signals): void {
  try {
    if (p.child.pid) process.kill(-p.child.pid, signal);
  } catch {} // the group is gone
}
/** SIGINT to the group, as Ctrl-C, and SIGKILL to whatever is left after 5 s. */
async function stop(p: Proc): Promise<void> {
  if (p.child.exitCode === null && p.child.signalCode === null) {
    signalGroup(p, 'SIGINT');
    await Promise.race([p.exited, sleep(5000, undefined, { ref: false })]);
  }
  signalGroup(p, 'SIGKILL');
  live.delete(p);
}
const stopAll = () => Promise.all([...live].map(stop));

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });

/** The caller's environment without target settings (those a .env file could add held empty), reports in `dir`. */
function suiteEnv(dir: string, port?: number): NodeJS.ProcessEnv {
  const env = Object.entries(process.env).filter(([k]) => !/^(API_|FC_|CONFORMANCE_)|_MERCHANT_ID$/.test(k));
  const held = ['API_DEFAULT_LIMIT', 'API_MAX_RPS', 'API_MAX_REQUESTS', 'API_MAX_RECORDS', 'API_TIMEOUT_MS', 'FC_SEED'];
  for (const k of [...held, 'FC_PATH', 'FC_NUM_RUNS', 'CONFORMANCE_STRICT']) env.push([k, '']);
  const mock = port ? { CONFORMANCE_PROFILE: 'mock', CONFORMANCE_MOCK_PORT: String(port) } : {};
  return { ...Object.fromEntries(env), ...mock, CONFORMANCE_REPORTS_DIR: dir };
}

/** The full run, as a user starts it (scripts/run-suite.ts): output (redacted) in <dir>/bench-output.log. */
async function conformance(dir: string, port: number): Promise<Run> {
  const cpu0 = childrenCpuSeconds();
  const done = await runSuite(suiteEnv(dir, port), { timeoutMs: 300_000 });
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
  log(`  full run ${dir}: ${run.seconds.toFixed(2)} s, exit ${run.exitCode}, ${run.requests ?? '?'} requests`);
  return run;
}

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

/** Playwright's own start: `playwright test --list` of the suite, a whole process timed from spawn to exit. */
async function listing(dir: string): Promise<Run> {
  const t0 = performance.now();
  const p = start(process.execPath, [PLAYWRIGHT, 'test', '--list', '-c', 'playwright.config.ts'], {
    env: suiteEnv(dir),
  });
  const run: Run = { exitCode: await p.exited, seconds: (performance.now() - t0) / 1000 };
  await stop(p);
  log(`  playwright test --list: ${run.seconds.toFixed(2)} s, exit ${run.exitCode}`);
  return run;
}

/**
 * The suite against the mock allowing 8 requests in any second and holding each 40 ms (a shared sandbox far away):
 * how much of the allowed rate the run used, measured at the mock. `grep` narrows the run (--quick).
 */
async function rateLimited(dir: string, grep: string | undefined): Promise<Pacing> {
  const limit = 8;
  const accepted: number[] = [];
  const mock = await startMockServer({
    rateLimit: limit,
    latencyMs: 40,
    onRequest: () => accepted.push(performance.now()),
  });
  try {
    const env = { ...suiteEnv(dir), ...mock.env };
    const done = await runSuite(env, { timeoutMs: 600_000, args: grep ? ['--grep', grep] : [] });
    writeFileSync(`${dir}/bench-output.log`, redact(done.stdout + done.stderr));
    const sent = JSON.parse(readFileSync(`${dir}/conformance.json`, 'utf8')).requests as number;
    const span = ((accepted.at(-1) ?? 0) - (accepted[0] ?? 0)) / 1000;
    const pacing = {
      limit,
      accepted: accepted.length,
      spanSeconds: span,
      wallSeconds: done.seconds,
      refused: sent - accepted.length,
    };
    log(`  exit ${done.status}: ${pacingText(pacing)}`);
    return pacing;
  } finally {
    await mock.stop();
  }
}

/** The mock (scripts/bench/mock-rss.ts): its URL, and its resident memory and heap after GC on request. */
async function startMock() {
  const mock = ['--expose-gc', '--import', 'tsx', 'scripts/bench/mock-rss.ts'];
  const p = start(process.execPath, mock, { stdio: ['pipe', 'pipe', 'ignore'] });
  const lines = createInterface({ input: p.child.stdout as Readable })[Symbol.asyncIterator]();
  const next = async () => {
    const line = await lines.next();
    if (line.done) throw new Error('the mock exited');
    return String(line.value);
  };
  const memoryMB = async () => {
    p.child.stdin?.write('\n');
    const [rss, heap] = (await next()).split(' ').map((bytes) => Number(bytes) / 2 ** 20);
    return { rss: rss as number, heap: heap as number };
  };
  return { p, url: await next(), memoryMB };
}

async function load(base: string, connections: number, seconds: number): Promise<Load> {
  const autocannon = createRequire(import.meta.url)('autocannon'); // untyped: the fields read below
  const headers = { authorization: `Bearer ${IDENTITY.keys.test}` }; // the key is in these options only
  const { requests, latency, ...r } = await autocannon({ url: base + PATH, connections, duration: seconds, headers });
  return { rps: Math.round(requests.mean), p99: latency.p99, non2xx: r.non2xx, errors: r.errors, timeouts: r.timeouts };
}

type Plan = ReturnType<typeof parseOptions>['plan'];

/** Stops every process group the bench started on SIGINT or SIGTERM, and at exit. */
function stopOnSignals(): void {
  const onSignal = (signal: NodeJS.Signals) => {
    interrupted = true;
    process.stderr.write(`\nbench: ${signal}, stopping ${live.size} process group(s)\n`);
    void stopAll().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
  process.once('exit', () => {
    for (const p of live) signalGroup(p, 'SIGKILL');
  });
}

/** Full runs, each paired with a listing, so that a machine that drifts between minutes moves both. */
async function measureFullRuns(plan: Plan, f: Figures): Promise<void> {
  const [full, list]: [Run[], Run[]] = [[], []];
  for (let i = 1; i <= plan.runs; i++) {
    const dir = `reports/bench/run-${i}`;
    mkdirSync(dir, { recursive: true });
    full.push(await conformance(dir, await freePort()));
    list.push(await listing(dir));
  }
  [f.conformance, f.startup] = [runsOf(full), runsOf(list)];
}

/** The mock's capacity at 1 and 10 connections, then its memory under load. */
async function measureMock(plan: Plan, f: Figures): Promise<void> {
  const mock = await startMock();
  const start = await sleep(1000).then(mock.memoryMB);
  await load(mock.url, 10, plan.warmUp);
  [f.mock1, f.mock10] = [await load(mock.url, 1, plan.load), await load(mock.url, 10, plan.load)];
  log(`  1 connection: ${loadText(f.mock1)}\n  10 connections: ${loadText(f.mock10)}`);
  await load(mock.url, 10, plan.memory);
  const end = await mock.memoryMB();
  const seconds = plan.warmUp + 2 * plan.load + plan.memory;
  f.memory = { startMB: start.rss, endMB: end.rss, seconds, heapStartMB: start.heap, heapEndMB: end.heap };
  await stop(mock.p);
}

/** Prism serving schemas/openapi.yaml, under the same load as the mock. */
async function measurePrism(plan: Plan, f: Figures): Promise<void> {
  const port = await freePort();
  const p = start('node_modules/.bin/prism', ['mock', '-h', '127.0.0.1', '-p', `${port}`, 'schemas/openapi.yaml']);
  const base = `http://127.0.0.1:${port}`;
  for (let t = 0; !(await fetch(`${base}/merchant/status`).then(Boolean, () => false)); t++) {
    if (t > 240 || p.child.exitCode !== null) throw new Error('Prism did not answer within 60 s');
    await sleep(250);
  }
  await load(base, 10, plan.warmUp);
  f.prism = await load(base, 10, plan.load);
  log(`  ${loadText(f.prism)}`);
  await stop(p);
}

async function main(argv: string[]): Promise<number> {
  let opts: ReturnType<typeof parseOptions>;
  try {
    opts = parseOptions(argv);
  } catch (error) {
    console.error(`bench: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (opts.help) {
    console.log(USAGE);
    return 0;
  }
  const { plan } = opts;
  for (const key of Object.values(IDENTITY.keys)) registerSecret(key);
  stopOnSignals();
  rmSync('reports/bench', { recursive: true, force: true });
  mkdirSync('reports/bench', { recursive: true });

  const [f, errors, started, loadBefore]: [Figures, string[], Date, number[]] = [{}, [], new Date(), loadavg()];
  const step = async (name: string, body: () => Promise<void>) => {
    log(name);
    await body().catch(async (error: Error) => {
      if (interrupted) await new Promise(() => {}); // the signal handler stops everything and exits
      errors.push(redact(`${name}: ${error.message}`));
      log(`  ERROR ${errors.at(-1)}`);
    });
  };
  try {
    await step('Full conformance run against the bundled mock, paired with `playwright test --list`', () =>
      measureFullRuns(plan, f),
    );
    // --quick: the auth and mode checks only (about 300 requests, 40 s); else the full run (about 1,000, 2 min).
    const pacingGrep = opts.quick ? 'AUTH-|MODE-|KEY-|CFG-' : undefined;
    await step(
      `Rate-limited sandbox: the mock allowing 8 requests/s, 40 ms away (${opts.quick ? 'AUTH-, MODE-' : 'full run'})`,
      async () => {
        const dir = 'reports/bench/rate-limited';
        mkdirSync(dir, { recursive: true });
        f.pacing = await rateLimited(dir, pacingGrep);
      },
    );
    await step(`Mock: capacity (limit=10), then memory over ${plan.memory} s more at 10 connections`, () =>
      measureMock(plan, f),
    );
    f.prism = opts.skipPrism ? 'n/a (--skip-prism)' : 'not measured (see the error)';
    if (!opts.skipPrism)
      await step('Prism on schemas/openapi.yaml (limit=10, 10 connections)', () => measurePrism(plan, f));
  } finally {
    await stopAll();
  }

  const avg = (l: number[]) => l.map((x) => x.toFixed(2)).join(' ');
  const header =
    `npm run bench${opts.quick ? ' -- --quick' : ''}: ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC, ` +
    `${cpus().length} CPUs (${cpus()[0]?.model}), Node ${process.version}, load ${avg(loadBefore)} to ${avg(loadavg())}`;
  const report = { header, plan, figures: f, rows: rows(f), errors };
  writeFileSync('reports/bench.json', redact(`${JSON.stringify(report, null, 2)}\n`));
  log(`\n${header}\n${render(report.rows)}${errors.map((e) => `\nERROR ${e}`).join('')}\nWrote reports/bench.json`);
  return errors.length > 0 ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2));
}
