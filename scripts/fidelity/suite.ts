/**
 * `--suite`: the conformance suite against each target (its variables in the child's environment only,
 * reports under <out>/fidelity/A and /B), then the rule verdicts of the two runs side by side.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KEY_VARS } from '../../fixtures/config.ts';
import { redact } from '../../fixtures/secrets.ts';
import type { LoadedTarget, Side } from './load.ts';

export interface SuiteRun {
  side: Side;
  exitCode: number;
  dir: string;
  /** One line: exit code and verdict counts, or why there is no verdict. */
  summary: string;
  verdicts: Record<string, string>;
}

export interface SuiteComparison {
  A: SuiteRun;
  B: SuiteRun;
  differences: Array<{ rule: string; a: string; b: string }>;
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Variables the suite reads. Each is set from the file or to '' in the child, so neither the caller's
 * environment nor the repository's `.env` (loaded only for unset variables) can leak into a target's run.
 */
const TARGET_VARS = [
  'CONFORMANCE_PROFILE',
  'API_BASE_URL',
  ...Object.values(KEY_VARS),
  'SANDBOX_MERCHANT_ID',
  'LIVE_MERCHANT_ID',
  'OTHER_SANDBOX_MERCHANT_ID',
  'API_DEFAULT_LIMIT',
  'API_MAX_RPS',
  'API_MAX_REQUESTS',
  'API_MAX_RECORDS',
  'API_TIMEOUT_MS',
  'CONFORMANCE_STRICT',
  'FC_SEED',
  'FC_PATH',
  'FC_NUM_RUNS',
];

function runOne(lt: LoadedTarget, dir: string, seed: number): Promise<SuiteRun> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of TARGET_VARS) env[name] = lt.env[name] ?? '';
  // The same seed on both sides: the properties draw the same inputs.
  if (!env.FC_SEED) env.FC_SEED = String(seed);
  env.CONFORMANCE_REPORTS_DIR = resolvePath(dir);
  const file = join(resolvePath(dir), 'conformance.json');
  rmSync(file, { force: true });
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['node_modules/@playwright/test/cli.js', 'test', '-c', 'playwright.config.ts'],
      {
        cwd: ROOT,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let tail = '';
    const keep = (chunk: Buffer) => {
      tail = (tail + chunk.toString('utf8')).slice(-4000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('close', (code) => {
      const exitCode = code ?? 1;
      if (!existsSync(file)) {
        const last = redact(tail.trim()).split('\n').slice(-3).join(' / ');
        resolve({
          side: lt.side,
          exitCode,
          dir,
          summary: `exit ${exitCode}, no conformance.json (${last})`,
          verdicts: {},
        });
        return;
      }
      const json = JSON.parse(readFileSync(file, 'utf8')) as {
        rules?: Array<{ id: string; verdict: string }>;
        verdicts?: Record<string, number>;
      };
      const verdicts = Object.fromEntries((json.rules ?? []).map((r) => [r.id, r.verdict]));
      const counts = Object.entries(json.verdicts ?? {})
        .filter(([, n]) => n > 0)
        .map(([v, n]) => `${n} ${v}`)
        .join(', ');
      resolve({
        side: lt.side,
        exitCode,
        dir,
        summary: `exit ${exitCode}; rules: ${counts} (${dir}/conformance.md)`,
        verdicts,
      });
    });
  });
}

/** Runs the suite against A, then B (one at a time: a shared sandbox gets one run's load), and diffs the verdicts. */
export async function compareSuites(
  a: LoadedTarget,
  b: LoadedTarget,
  outDir: string,
  seed: number,
): Promise<SuiteComparison> {
  const A = await runOne(a, join(outDir, 'fidelity', 'A'), seed);
  const B = await runOne(b, join(outDir, 'fidelity', 'B'), seed);
  const rules = [...new Set([...Object.keys(A.verdicts), ...Object.keys(B.verdicts)])];
  const differences = rules
    .filter((r) => A.verdicts[r] !== B.verdicts[r])
    .map((rule) => ({ rule, a: A.verdicts[rule] ?? '(none)', b: B.verdicts[rule] ?? '(none)' }));
  return { A, B, differences };
}
