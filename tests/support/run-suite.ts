/**
 * Runs the conformance suite in a child process through its command (bin/payment-api-conformance.js), as a user
 * runs it, without blocking this process: the self-tests' hostile targets live here and must keep answering.
 * `status` is the command's exit code: 0 conformant, 1 nonconformant, 2 bad configuration, 3 inconclusive.
 */
import { spawn } from 'node:child_process';

export interface SuiteRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runSuite(env: NodeJS.ProcessEnv, args: string[] = [], timeoutMs = 180_000): Promise<SuiteRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['bin/payment-api-conformance.js', ...args], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString('utf8');
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString('utf8');
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}
