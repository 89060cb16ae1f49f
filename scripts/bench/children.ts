/**
 * The processes `npm run bench` starts: each leads its own process group and is stopped as a group — SIGINT first, as
 * Ctrl-C would, then SIGKILL to whatever is left after 5 s — at the end of its step, on an error, and on SIGINT or
 * SIGTERM to the bench; on exit, any group still known gets SIGKILL. And the environment a measured run gets: none of
 * the caller's settings, so that every run measures the default run against the bundled mock.
 */
import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';
import { type AddressInfo, createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export type Proc = { child: ChildProcess; exited: Promise<number | null> };
const live = new Set<Proc>();
let interrupted = false;

/** Whether a signal asked the bench to stop. */
export const isInterrupted = () => interrupted;

export function start(command: string, args: string[], opts: SpawnOptions = {}): Proc {
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
export async function stop(p: Proc): Promise<void> {
  if (p.child.exitCode === null && p.child.signalCode === null) {
    signalGroup(p, 'SIGINT');
    await Promise.race([p.exited, sleep(5000, undefined, { ref: false })]);
  }
  signalGroup(p, 'SIGKILL');
  live.delete(p);
}

export const stopAll = () => Promise.all([...live].map(stop));

/** Stops every process group the bench started on SIGINT or SIGTERM, and at exit. */
export function stopOnSignals(): void {
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

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });

/** The caller's environment without target settings (those a .env file could add held empty), reports in `dir`. */
export function suiteEnv(dir: string, port?: number): NodeJS.ProcessEnv {
  const env = Object.entries(process.env).filter(([k]) => !/^(API_|FC_|CONFORMANCE_)|_MERCHANT_ID$/.test(k));
  const held = ['API_DEFAULT_LIMIT', 'API_MAX_RPS', 'API_MAX_REQUESTS', 'API_MAX_RECORDS', 'API_TIMEOUT_MS', 'FC_SEED'];
  for (const k of [...held, 'FC_PATH', 'FC_NUM_RUNS', 'CONFORMANCE_STRICT']) env.push([k, '']);
  const mock = port ? { CONFORMANCE_PROFILE: 'mock', CONFORMANCE_MOCK_PORT: String(port) } : {};
  return { ...Object.fromEntries(env), ...mock, CONFORMANCE_REPORTS_DIR: dir };
}
