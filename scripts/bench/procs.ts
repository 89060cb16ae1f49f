/**
 * Child processes of the benchmark: started in their own process group, tracked, and stopped with their
 * whole process tree (every descendant, by pid and start time, so a reused pid is never hit) — on success,
 * on error, on SIGINT/SIGTERM, and synchronously on exit. Plus the small helpers around them: a free port,
 * waiting until a server answers, and reading a process's resident memory from /proc.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface StartOptions {
  env?: NodeJS.ProcessEnv;
  /** 'ignore' drops the output; 'capture' keeps it in memory (see Child.output); a number is a file descriptor. */
  stdout?: 'ignore' | 'capture' | number;
  stderr?: 'ignore' | 'capture' | number;
}

/** A process we started. `exited` resolves once, with its exit code or signal. */
export class Child {
  readonly pid: number;
  readonly exited: Promise<ExitInfo>;
  exit: ExitInfo | undefined;
  private readonly chunks: string[] = [];

  constructor(
    readonly name: string,
    proc: ChildProcess,
  ) {
    // Without a listener, a spawn failure (ENOENT…) would be an uncaught 'error' event; it shows as no pid.
    proc.on('error', () => {});
    if (proc.pid === undefined) throw new Error(`${name}: could not start`);
    this.pid = proc.pid;
    for (const stream of [proc.stdout, proc.stderr]) {
      stream?.setEncoding('utf8');
      stream?.on('data', (chunk: string) => this.chunks.push(chunk));
    }
    this.exited = new Promise((resolve) => {
      proc.once('exit', (code, signal) => {
        this.exit = { code, signal };
        live.delete(this);
        resolve(this.exit);
      });
    });
  }

  get running(): boolean {
    return this.exit === undefined;
  }

  /** Everything captured on stdout/stderr so far (unredacted: redact before printing or writing it). */
  output(): string {
    return this.chunks.join('');
  }

  /**
   * Stops the process and all its descendants: `signal` to the process itself (SIGINT lets Playwright tear
   * down its webServer and workers), then, after `graceMs`, SIGKILL to every member of the tree still alive.
   */
  async stop(signal: NodeJS.Signals = 'SIGTERM', graceMs = 3000): Promise<ExitInfo> {
    if (this.exit) return this.exit;
    const tree = [identify(this.pid), ...descendants(this.pid)].filter((p): p is Proc => p !== undefined);
    signalPid(this.pid, signal);
    const timer = new AbortController();
    const grace = sleep(graceMs, undefined, { signal: timer.signal }).catch(() => undefined);
    const done = await Promise.race([this.exited, grace]);
    timer.abort(); // no lingering timer keeps the benchmark alive once the process is gone
    for (const p of tree) if (isSame(p)) signalPid(p.pid, 'SIGKILL');
    return done ?? this.exited;
  }

  /** Synchronous last resort (process 'exit' handler): SIGKILL to the whole tree. */
  killSync(): void {
    if (this.exit) return;
    const tree = [identify(this.pid), ...descendants(this.pid)].filter((p): p is Proc => p !== undefined);
    for (const p of tree) if (isSame(p)) signalPid(p.pid, 'SIGKILL');
  }
}

const live = new Set<Child>();

/** Starts `command` in its own process group (so a Ctrl-C on the terminal reaches only us; we stop it). */
export function start(name: string, command: string, args: string[], opts: StartOptions = {}): Child {
  if (interrupted) throw new Error('interrupted');
  const io = (mode: StartOptions['stdout']) => (mode === 'capture' ? 'pipe' : (mode ?? 'ignore'));
  const proc = spawn(command, args, {
    env: opts.env ?? process.env,
    stdio: ['ignore', io(opts.stdout), io(opts.stderr)],
    detached: true,
  });
  const child = new Child(name, proc);
  live.add(child);
  return child;
}

/** Stops every child still running (SIGTERM, then SIGKILL to the trees after the grace period). */
export async function stopAll(graceMs = 3000): Promise<void> {
  await Promise.all([...live].map((c) => c.stop('SIGTERM', graceMs)));
}

let interrupted = false;

/**
 * On SIGINT/SIGTERM: runs `onInterrupt` (e.g. stop the running load), stops every child, exits 130/143.
 * On exit for any other reason: SIGKILL to whatever is left.
 */
export function installCleanup(onInterrupt: () => void): void {
  const handler = (signal: NodeJS.Signals) => {
    if (interrupted) return;
    interrupted = true;
    process.stderr.write(`\nbench: ${signal}, stopping ${live.size} child process(es)…\n`);
    onInterrupt();
    void stopAll(2000).finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
  process.once('exit', () => {
    for (const c of live) c.killSync();
  });
}

export function wasInterrupted(): boolean {
  return interrupted;
}

interface Proc {
  pid: number;
  ppid: number;
  /** Start time in clock ticks since boot (field 22 of /proc/<pid>/stat): tells a reused pid apart. */
  start: string;
}

function readStat(pid: number): Proc | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: fields after it start past the last ')'.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // rest[0] is field 3 (state), so field N is rest[N - 3].
    return { pid, ppid: Number(rest[1]), start: rest[19] ?? '' };
  } catch {
    return undefined;
  }
}

function identify(pid: number): Proc | undefined {
  return readStat(pid);
}

function isSame(p: Proc): boolean {
  const now = readStat(p.pid);
  return now !== undefined && now.start === p.start;
}

/** Every descendant of `root` (children, grandchildren…), whatever their process group. */
export function descendants(root: number): Proc[] {
  const all: Proc[] = [];
  let names: string[] = [];
  try {
    names = readdirSync('/proc');
  } catch {
    return all;
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const p = readStat(Number(name));
    if (p) all.push(p);
  }
  const out: Proc[] = [];
  const frontier = [root];
  while (frontier.length > 0) {
    const parent = frontier.pop();
    for (const p of all) {
      if (p.ppid === parent) {
        out.push(p);
        frontier.push(p.pid);
      }
    }
  }
  return out;
}

function signalPid(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone.
  }
}

/** A port free on 127.0.0.1 right now (the OS picks it). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** True when nothing listens on `port` (we can bind it). */
export async function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * Waits until `url` answers with any HTTP status (no credentials are sent). Fails when `child` exits first
 * or after `timeoutMs`. Returns the seconds it took.
 */
export async function waitUntilAnswers(url: string, child: Child, timeoutMs: number): Promise<number> {
  const t0 = performance.now();
  while (performance.now() - t0 < timeoutMs) {
    if (!child.running) throw new Error(`${child.name} exited before answering (${describeExit(child.exit)})`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      return (performance.now() - t0) / 1000;
    } catch {
      await sleep(100);
    }
  }
  throw new Error(`${child.name} did not answer within ${timeoutMs / 1000} s`);
}

export function describeExit(exit: ExitInfo | undefined): string {
  if (!exit) return 'still running';
  return exit.signal ? `killed by ${exit.signal}` : `exit code ${exit.code}`;
}

/** VmRSS (or another Vm* field) of /proc/<pid>/status, in kB. */
export function memoryKB(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = status.match(new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm'));
  if (!match?.[1]) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(match[1]);
}

/**
 * Proves that `pid` is the node process itself (not a wrapper such as npx or a shell): its executable is
 * this node binary, its command line names `script`, and it has no child process.
 */
export function assertNodeProcess(pid: number, script: string): { exe: string; children: number } {
  const exe = realpathSync(readlinkSync(`/proc/${pid}/exe`));
  const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  const children = descendants(pid).length;
  if (exe !== realpathSync(process.execPath)) throw new Error(`pid ${pid} is ${exe}, not node`);
  if (!argv.includes(script)) throw new Error(`pid ${pid} does not run ${script}`);
  if (children > 0) throw new Error(`pid ${pid} has ${children} child process(es): a wrapper, not the server`);
  return { exe, children };
}

export interface CpuSnapshot {
  /** Jiffies of the whole machine: busy, and busy + idle. */
  busy: number;
  total: number;
  /** Jiffies used by this process and its reaped descendants (utime + stime + cutime + cstime). */
  own: number;
}

/** A snapshot of CPU time, to tell how much of the machine other work took while a step ran. */
export function cpuSnapshot(): CpuSnapshot | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
    const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = line
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    const busy = user + nice + system + irq + softirq + steal;
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14..17 (utime, stime, cutime, cstime) are rest[11..14].
    const own = [11, 12, 13, 14].reduce((n, i) => n + Number(rest[i] ?? 0), 0);
    return { busy, total: busy + idle + iowait, own };
  } catch {
    return undefined;
  }
}

/**
 * The share of the machine's CPU (0..1, all cores) that processes other than ours used between two
 * snapshots. Exact once our children of the interval have exited (their time is then in cutime/cstime).
 */
export function foreignCpuShare(a: CpuSnapshot | undefined, b: CpuSnapshot | undefined): number | null {
  if (!a || !b || b.total <= a.total) return null;
  const foreign = b.busy - a.busy - (b.own - a.own);
  return Math.min(1, Math.max(0, foreign / (b.total - a.total)));
}
