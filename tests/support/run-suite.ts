/**
 * Runs the conformance suite (playwright.config.ts) in a child process, as a user runs it, without
 * blocking this process: the self-tests' hostile targets live here and must keep answering.
 */
import { spawn } from 'node:child_process';

export interface SuiteRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runSuite(env: NodeJS.ProcessEnv, args: string[] = [], timeoutMs = 180_000): Promise<SuiteRun> {
  return new Promise((resolve) => {
    const child = spawn(
      'node',
      ['node_modules/@playwright/test/cli.js', 'test', '-c', 'playwright.config.ts', ...args],
      {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
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
