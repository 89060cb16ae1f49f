/**
 * `npm run bench [-- --quick] [-- --skip-prism] [-- --skip-depths] [-- --rate-limited] [-- --split]`: the figures and
 * targets of docs/performance.md, measured in one run, written to reports/bench.json and printed as one table (scripts/bench/figures.ts). Every child
 * leads its own process group (scripts/bench/children.ts). No key is printed or written: the Authorization header
 * exists only in autocannon's request options. Exit: 0 all measured (a missed target is a finding), 1 one was not, 2
 * bad option.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { DEPTHS } from '../../core/model/depth.ts';
import { paymentsPath } from '../../core/model/listing.ts';
import { redact, registerSecret } from '../../core/model/secrets.ts';
import { IDENTITY } from '../../mock/index.ts';
import { freePort, isInterrupted, start, stop, stopAll, stopOnSignals, suiteEnv } from './children.ts';
import { faultsCaught, measuredRun, onMock, rateLimited } from './depths.ts';
import { type Figures, type Load, loadText, pacingText, type Run, render, rows, runsOf } from './figures.ts';
import { measureSplit, splitReport } from './split.ts';

export const USAGE =
  'Usage: npm run bench [-- --quick] [-- --skip-prism] [-- --skip-depths] [-- --rate-limited] [-- --split]';
const PATH = `${paymentsPath(IDENTITY.merchants.sandbox)}?limit=10`;
const PLAYWRIGHT = 'node_modules/@playwright/test/cli.js';
const log = (line: string) => console.log(redact(line));

/** The options and what they mean in runs and seconds. Throws on an unknown option or an argument. */
export function parseOptions(args: string[]) {
  const flag = { type: 'boolean' } as const;
  const options = {
    quick: flag,
    'skip-prism': flag,
    'skip-depths': flag,
    'rate-limited': flag,
    split: flag,
    help: flag,
  };
  const { values } = parseArgs({ args, strict: true, options });
  const plan = values.quick ? { runs: 3, load: 2, warmUp: 1, memory: 10 } : { runs: 5, load: 5, warmUp: 3, memory: 60 };
  const skip = { prism: !!values['skip-prism'], depths: !!values['skip-depths'] };
  const modes = { rateLimited: !!values['rate-limited'], split: !!values.split };
  return { quick: !!values.quick, skipPrism: skip.prism, skipDepths: skip.depths, ...modes, help: !!values.help, plan };
}

/** The standard run as a user starts it, on the bundled mock (in-process, on a free port). */
async function conformance(dir: string): Promise<Run> {
  const run = await measuredRun(dir, suiteEnv(dir, await freePort()));
  log(`  standard run ${dir}: ${run.seconds.toFixed(2)} s, exit ${run.exitCode}, ${run.requests ?? '?'} requests`);
  return run;
}

/**
 * The framework's floor: an empty Playwright run of two trivial tests with the suite's two workers
 * (scripts/bench/floor/), a whole process timed from spawn to exit: what no suite on Playwright can beat.
 */
async function floor(dir: string): Promise<Run> {
  const t0 = performance.now();
  const config = 'scripts/bench/floor/playwright.config.ts';
  const p = start(process.execPath, [PLAYWRIGHT, 'test', '-c', config], {
    env: { ...suiteEnv(dir), FLOOR_OUTPUT_DIR: `${dir}/floor-results` },
  });
  const run: Run = { exitCode: await p.exited, seconds: (performance.now() - t0) / 1000 };
  await stop(p);
  log(`  the floor: ${run.seconds.toFixed(2)} s, exit ${run.exitCode}`);
  return run;
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
type Step = (name: string, body: () => Promise<void>) => Promise<void>;

/** Standard runs, each paired with the floor, so that a machine that drifts between minutes moves both. */
async function measureFullRuns(plan: Plan, f: Figures): Promise<void> {
  const [full, floors]: [Run[], Run[]] = [[], []];
  for (let i = 1; i <= plan.runs; i++) {
    const dir = `reports/bench/run-${i}`;
    mkdirSync(dir, { recursive: true });
    full.push(await conformance(dir));
    floors.push(await floor(dir));
  }
  [f.conformance, f.floor] = [runsOf(full), runsOf(floors)];
}

/**
 * Each depth: a run on the mock (standard's are the paired runs), the proof's fault projects at that depth, and with
 * --rate-limited one against the mock at 10 requests a second 40 ms away (minutes each: standard's about 170 s).
 */
async function measureDepths(rateLimit: boolean, f: Figures, step: Step): Promise<void> {
  f.depths = {};
  for (const depth of DEPTHS) {
    const d: NonNullable<Figures['depths']>[typeof depth] = {};
    f.depths[depth] = d;
    const dir = (what: string) => {
      mkdirSync(`reports/bench/${depth}-${what}`, { recursive: true });
      return `reports/bench/${depth}-${what}`;
    };
    if (depth !== 'standard') {
      await step(`Depth ${depth} on the bundled mock`, async () => {
        d.mock = await onMock(depth, dir('mock'));
        log(`  ${d.mock.seconds.toFixed(2)} s, exit ${d.mock.exitCode}, ${d.mock.requests ?? '?'} requests`);
      });
    }
    if (rateLimit) {
      await step(`Depth ${depth} against the mock allowing 10 requests/s, 40 ms away`, async () => {
        d.limited = await rateLimited(depth, dir('rate-limited'));
        const pacing = d.limited.pacing ? `: ${pacingText(d.limited.pacing)}` : '';
        log(`  ${d.limited.seconds.toFixed(1)} s, exit ${d.limited.exitCode}${pacing}`);
      });
    }
    await step(`Depth ${depth}: the proof's fault projects`, async () => {
      d.faults = await faultsCaught(depth, dir('faults'));
      log(`  ${d.faults.caught}/${d.faults.total} caught; missed: ${d.faults.missed.join(', ') || 'none'}`);
    });
  }
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

/**
 * --split: the floor and the standard run under --cpu-prof, `pairs` times alternately (scripts/bench/split.ts), printed
 * process by process and written to reports/bench-split.json.
 */
async function split(pairs: number): Promise<number> {
  log(`The floor and the standard run under --cpu-prof, ${pairs} pair(s); profiles in reports/bench/split-N/profiles`);
  const [started, before] = [new Date(), loadavg()];
  try {
    const s = await measureSplit(pairs);
    const avg = (l: number[]) => l.map((x) => x.toFixed(2)).join(' ');
    const header = `npm run bench -- --split: ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC, ${cpus().length} CPUs, Node ${process.version}, load ${avg(before)} to ${avg(loadavg())}`;
    writeFileSync('reports/bench-split.json', redact(`${JSON.stringify({ header, ...s }, null, 2)}\n`));
    log(`\n${header}\n${splitReport(s).join('\n')}\nWrote reports/bench-split.json`);
    return 0;
  } catch (error) {
    log(`ERROR ${(error as Error).message}`);
    return 1;
  } finally {
    await stopAll();
  }
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
  if (opts.split) return split(opts.quick ? 1 : 3);

  const [f, errors, started, loadBefore]: [Figures, string[], Date, number[]] = [{}, [], new Date(), loadavg()];
  const step = async (name: string, body: () => Promise<void>) => {
    log(name);
    await body().catch(async (error: Error) => {
      if (isInterrupted()) await new Promise(() => {}); // the signal handler stops everything and exits
      errors.push(redact(`${name}: ${error.message}`));
      log(`  ERROR ${errors.at(-1)}`);
    });
  };
  try {
    await step('The standard run against the bundled mock, paired with the floor (two empty tests, two workers)', () =>
      measureFullRuns(plan, f),
    );
    if (!opts.skipDepths) await measureDepths(opts.rateLimited, f, step);
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
  const flags = [
    opts.quick && '--quick',
    opts.skipPrism && '--skip-prism',
    opts.skipDepths && '--skip-depths',
    opts.rateLimited && '--rate-limited',
  ];
  const header =
    `npm run bench${flags.some(Boolean) ? ` -- ${flags.filter(Boolean).join(' ')}` : ''}: ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC, ` +
    `${cpus().length} CPUs (${cpus()[0]?.model}), Node ${process.version}, load ${avg(loadBefore)} to ${avg(loadavg())}`;
  const report = { header, plan, figures: f, rows: rows(f), errors };
  writeFileSync('reports/bench.json', redact(`${JSON.stringify(report, null, 2)}\n`));
  log(`\n${header}\n${render(report.rows)}${errors.map((e) => `\nERROR ${e}`).join('')}\nWrote reports/bench.json`);
  return errors.length > 0 ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2));
}
