/**
 * The one way a script starts the conformance suite: in a child process through its command
 * (bin/payment-api-conformance.js), as a user runs it, without blocking this process (the self-tests' hostile
 * targets live here and must keep answering). `status` is the command's exit code: 0 conformant, 1 nonconformant,
 * 2 bad configuration, 3 inconclusive; `seconds` its wall time, from spawn to exit.
 */
import { spawn } from 'node:child_process';
import type { MockEnv } from '../mock/index.ts';

export interface SuiteRun {
  status: number | null;
  stdout: string;
  stderr: string;
  seconds: number;
  /** Each line of stdout with when it came, in ms from the spawn (when asked for: `timed`). */
  lines?: Array<{ at: number; line: string }>;
}

export interface SuiteOptions {
  /** Arguments of the command (`--grep`, `--reports`, `--`, …). */
  args?: string[];
  /** Killed after this long (SIGKILL): a run that hangs ends as status null. */
  timeoutMs?: number;
  /** Print the run's output as it comes (npm test's conformance stage) instead of collecting it. */
  inherit?: boolean;
  /** Sends `signal` to the command once, as soon as its output so far satisfies `when` (a CI system cancelling). */
  interrupt?: { when: (stdout: string) => boolean; signal: NodeJS.Signals };
  /** Keep when each line of stdout came (a test of the console's pace). */
  timed?: boolean;
}

export function runSuite(env: NodeJS.ProcessEnv, opts: SuiteOptions = {}): Promise<SuiteRun> {
  const { args = [], timeoutMs = 180_000, inherit = false, interrupt, timed = false } = opts;
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['bin/payment-api-conformance.js', ...args], {
      env,
      stdio: ['ignore', inherit ? 'inherit' : 'pipe', inherit ? 'inherit' : 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let interrupted = false;
    const lines: Array<{ at: number; line: string }> = [];
    child.stdout?.on('data', (d: Buffer) => {
      if (timed) {
        const at = performance.now() - started;
        const [head = '', ...rest] = d.toString('utf8').split('\n');
        // A line cut across chunks is stamped when its end comes.
        if (lines.length && !stdout.endsWith('\n')) (lines.at(-1) as { line: string }).line += head;
        else lines.push({ at, line: head });
        for (const line of rest) lines.push({ at, line });
      }
      stdout += d.toString('utf8');
      if (interrupt && !interrupted && interrupt.when(stdout)) {
        interrupted = true;
        child.kill(interrupt.signal);
      }
    });
    child.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString('utf8');
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (status) => {
      clearTimeout(timer);
      const seconds = (performance.now() - started) / 1000;
      resolve({ status, stdout, stderr, seconds, ...(timed ? { lines: lines.filter((l) => l.line !== '') } : {}) });
    });
  });
}

/**
 * The variables of a run against a running mock (not the bundled one): its env, its revoked key standing also for the
 * rotated-out key (as in the bundled-mock profile), and no profile that could send the run elsewhere.
 */
export function againstMock(env: MockEnv): NodeJS.ProcessEnv {
  return { ...env, CONFORMANCE_PROFILE: '' };
}
