/**
 * The pure part of `npm run bench -- --split` (./split.ts profiles): V8 CPU profiles of one Playwright run read as
 * processes on the runner's clock (when each started and ended, its busy CPU) and each process's CPU split into parts
 * by what the sampled stack was doing. A sample goes to the first part of PARTS whose test matches a frame of its
 * stack, so a request sent while a module loads is loading, and the mock's socket reads are the mock's.
 */

/** One `.cpuprofile` (V8's format) with the process and thread that wrote it. */
export interface Profile {
  pid: number;
  /** 0: the process's main thread; 1 and up: its module-loader thread (Playwright's ESM hooks). */
  thread: number;
  startTime: number;
  endTime: number;
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string }; children?: number[] }>;
  samples: number[];
  timeDeltas: number[];
}

type Frame = { functionName: string; url: string };
const own = (dir: string) => (f: Frame) => f.url.includes(`/${dir}/`) && !f.url.includes('/node_modules/');

/** The parts, in the order a sample is given to one. */
const PARTS: ReadonlyArray<readonly [string, (f: Frame) => boolean]> = [
  ['module loading', (f) => f.url.includes('babelBundle')],
  ['the mock', own('mock')],
  ['reporters', (f) => own('reporters')(f) || /allure-|playwright\/lib\/reporters\//.test(f.url)],
  ['the watcher', (f) => /\/core\/run\/watch\.ts|\/checks\/provenance\.ts/.test(f.url)],
  ['request log and ledger', (f) => /\/core\/client\/(request-log|ledger)\.ts/.test(f.url)],
  ['HTTP client and sockets', (f) => own('core/client')(f) || /^node:(_http_|net|internal\/stream_base)/.test(f.url)],
  ['checks', (f) => ['specs', 'checks', 'core', 'fixtures'].some((d) => own(d)(f)) || f.url.includes('.spec.')],
  ['Playwright', (f) => f.url.includes('/playwright')],
  ['garbage collection', (f) => f.functionName === '(garbage collector)'],
];
const OTHER = 'other';

/**
 * The part of the sampled stack `frames` (leaf first). Loading a module is the loader's own work (reading, resolving,
 * compiling: its innermost frame with a source is the loader's) and Playwright's transform of TypeScript; what a
 * module runs when it is evaluated counts as what that code is (the entry module runs the whole start under the loader).
 */
export function partOf(frames: readonly Frame[]): string {
  if (frames.find((f) => f.url !== '')?.url.startsWith('node:internal/modules/')) return 'module loading';
  for (const [name, test] of PARTS) if (frames.some(test)) return name;
  return OTHER;
}

export interface ProcessSplit {
  role: 'runner' | 'worker';
  pid: number;
  /** Seconds on the runner's clock (0: the runner's first sample). */
  start: number;
  end: number;
  /** CPU time sampled busy (not idle), all threads of the process, by part (ms). */
  busyMs: number;
  parts: Record<string, number>;
}
export interface Split {
  /** Wall seconds of the whole command, spawn to exit. */
  wallSeconds: number;
  processes: ProcessSplit[];
  /** A worker's first sample in a spec file, on the runner's clock: when the first check (or test) ran. */
  firstCheck?: number;
}

/** One profile's busy time by part, and the first moment (µs, its clock) a sample was in a spec file. */
function partsOfProfile(p: Profile) {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const parts: Record<string, number> = {};
  let [t, firstCheck] = [p.startTime, undefined as number | undefined];
  p.samples.forEach((id, i) => {
    const dt = p.timeDeltas[i] ?? 0;
    t += dt;
    const frames: Frame[] = [];
    for (let x: number | undefined = id; x !== undefined; x = parent.get(x)) {
      const node = byId.get(x);
      if (node) frames.push(node.callFrame);
    }
    if (frames[0]?.functionName === '(idle)') return;
    const name = p.thread > 0 ? 'module loading' : partOf(frames);
    parts[name] = (parts[name] ?? 0) + dt / 1000;
    if (firstCheck === undefined && frames.some((f) => f.url.includes('.spec.'))) firstCheck = t;
  });
  return { parts, firstCheck };
}

/** The run's processes on the runner's clock, each with its busy CPU by part; `wallSeconds` the command's. */
export function splitOf(profiles: readonly Profile[], wallSeconds: number): Split {
  const mains = profiles.filter((p) => p.thread === 0).sort((a, b) => a.startTime - b.startTime);
  const runner = mains[0];
  if (!runner) throw new Error('no profile of a main thread');
  const zero = runner.startTime;
  const at = (us: number) => (us - zero) / 1e6;
  let firstCheck: number | undefined;
  const processes = mains.map((main): ProcessSplit => {
    const parts: Record<string, number> = {};
    for (const p of profiles.filter((x) => x.pid === main.pid)) {
      const own = partsOfProfile(p);
      for (const [k, ms] of Object.entries(own.parts)) parts[k] = (parts[k] ?? 0) + ms;
      // The runner loads every spec file to list the tests: only a worker runs one.
      if (main !== runner && own.firstCheck !== undefined)
        firstCheck = Math.min(firstCheck ?? Infinity, at(own.firstCheck));
    }
    const busyMs = Object.values(parts).reduce((a, b) => a + b, 0);
    const role = main === runner ? 'runner' : 'worker';
    return { role, pid: main.pid, start: at(main.startTime), end: at(main.endTime), busyMs, parts };
  });
  return { wallSeconds, processes, firstCheck };
}

const ms = (x: number) => `${(x / 1000).toFixed(2)} s`;

/** The split as console lines: each process's span and busy CPU by part, then the CPU of each part over the run. */
export function splitText(label: string, s: Split): string[] {
  const cpu = s.processes.reduce((a, p) => a + p.busyMs, 0);
  const lines = [
    `${label}: ${s.wallSeconds.toFixed(2)} s wall, ${ms(cpu)} of CPU` +
      (s.firstCheck === undefined ? '' : `, first check at ${s.firstCheck.toFixed(2)} s`),
  ];
  for (const p of s.processes) {
    const top = Object.entries(p.parts)
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k} ${ms(v)}`);
    lines.push(`  ${p.role} ${p.start.toFixed(2)}–${p.end.toFixed(2)} s, busy ${ms(p.busyMs)}: ${top.join(', ')}`);
  }
  const total: Record<string, number> = {};
  for (const p of s.processes) for (const [k, v] of Object.entries(p.parts)) total[k] = (total[k] ?? 0) + v;
  const parts = Object.entries(total).sort((a, b) => b[1] - a[1]);
  lines.push(`  CPU by part: ${parts.map(([k, v]) => `${k} ${ms(v)}`).join(', ')}`);
  return lines;
}
