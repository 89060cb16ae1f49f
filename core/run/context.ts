/**
 * The run's context as the main process resolves it (playwright.config.ts, once) and every other process reads it
 * back: the seed, strictness, which checks run, the known deviations read and validated (--baseline), where the run
 * writes; and the target of a published run, its keys from the environment (core/model/
 * run-context.ts holds the context itself).
 */
import { readFileSync } from 'node:fs';
import { BaselineError, type BaselineInput, parseBaseline, today } from '../model/baseline.ts';
import { KEY_VARS, type KeySlot } from '../model/credentials.ts';
import { type RunContext, type RunFiles, STARTED_VAR, targetInfo } from '../model/run-context.ts';
import { registerSecret } from '../model/secrets.ts';
import type { Target } from '../model/target.ts';
import { type BundledMockEnv, grepOf, isPort } from './config.ts';
import { suiteVersion } from './version.ts';

/** Reads and checks a baseline file (--baseline); throws BaselineError naming every problem (a bad configuration). */
function readBaseline(file: string, date: string = today()): BaselineInput {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new BaselineError(file, [`cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`]);
  }
  return { file, entries: parseBaseline(text, file), date };
}

/** Where the run is and what it shares: its reports folder, its shard, the files of its processes. */
interface RunPlace {
  reports: string;
  shard: { current: number; total: number } | null;
  matrixDir: string;
  files: RunFiles;
}

/**
 * The run's context from its validated target (playwright.config.ts, once, in the main process): the seed (FC_SEED or
 * `pickSeed`), strictness, which checks run, the baseline read and validated (a BaselineError is a bad configuration),
 * where it writes. Published with publishRun; read by field everywhere else.
 */
export function runContext(target: Target, place: RunPlace, pickSeed: () => number, env = process.env): RunContext {
  const { keys: _keys, grep: _grep, strict, fcSeed, ...settings } = target;
  const baselineFile = env.CONFORMANCE_BASELINE?.trim();
  const writeBaseline = env.CONFORMANCE_WRITE_BASELINE?.trim();
  const grep = env.CONFORMANCE_GREP?.trim();
  const port = env.CONFORMANCE_MOCK_PORT?.trim();
  return {
    pid: process.pid,
    startedAt: startedAt(env),
    target: targetInfo(target, suiteVersion()),
    settings,
    seed: fcSeed ?? pickSeed(),
    strict,
    ...(grep ? { grep } : {}),
    baseline: baselineFile ? readBaseline(baselineFile) : null,
    ...(writeBaseline ? { writeBaseline } : {}),
    ...place,
    ...(target.bundledMock ? { mockPort: port && isPort(port) ? Number(port) : 0 } : {}),
  };
}

/**
 * When the run started: the command's start (it sets CONFORMANCE_STARTED_AT), else this process's (Playwright started
 * directly). The time budget counts from here, so that the command's own start counts too.
 */
function startedAt(env: NodeJS.ProcessEnv): number {
  const given = Number(env[STARTED_VAR]);
  return Number.isFinite(given) && given > 0 && given <= Date.now()
    ? given
    : Math.round(Date.now() - process.uptime() * 1000);
}

/**
 * The target of a published run, in a worker or global setup: its settings from the run context, its keys from the
 * environment (the bundled mock's from its identity), each registered as a secret. Resolved once, by the main process:
 * this only reads it back.
 */
export function runTarget(run: RunContext, env: NodeJS.ProcessEnv, bundled: BundledMockEnv): Target {
  const source = run.settings.bundledMock ? bundled(String(run.mockPort ?? 0)) : env;
  const keys: Partial<Record<KeySlot, string>> = {};
  for (const slot of Object.keys(KEY_VARS) as KeySlot[]) {
    const value = source[KEY_VARS[slot]]?.trim();
    if (!value) continue;
    keys[slot] = value;
    registerSecret(value);
  }
  return {
    ...run.settings,
    keys: keys as Target['keys'],
    strict: run.strict,
    fcSeed: run.seed,
    grep: grepOf(run.settings.profile, run.grep, []),
  };
}
