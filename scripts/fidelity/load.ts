/**
 * Loading the two env files: `dotenv.parse` (never into process.env), then the suite's own validation
 * (`resolveTarget`, rule CFG-KEYS). Problems name the file and the variable, never a value.
 */
import { readFileSync } from 'node:fs';
import dotenv from 'dotenv';
import { ConfigError, resolveTarget, type Target } from '../../fixtures/config.ts';

export type Side = 'A' | 'B';

export interface LoadedTarget {
  side: Side;
  file: string;
  /** The file's variables, as parsed (values are secrets: never print them). */
  env: Record<string, string>;
  target: Target;
}

/** Bad env files: exit 2. The message lists every problem of both files, by file and variable name. */
export class FidelityConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`fidelity: bad env file (nothing was sent to either target):\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'FidelityConfigError';
  }
}

function loadOne(side: Side, file: string): { loaded?: LoadedTarget; problems: string[] } {
  let text: Buffer;
  try {
    text = readFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (code ?? 'unreadable');
    return { problems: [`${file} (${side}): cannot read the file: ${why}`] };
  }
  const env = dotenv.parse(text);
  const problems: string[] = [];
  if (!env.API_BASE_URL?.trim()) {
    problems.push(
      'API_BASE_URL is not set (fidelity compares two running targets; for the bundled mock, start it with `npm run -s mock` and copy its lines)',
    );
  }
  if (env.CONFORMANCE_PROFILE?.trim() === 'mock')
    problems.push('CONFORMANCE_PROFILE=mock is not usable here (set API_BASE_URL instead)');
  let target: Target | undefined;
  if (problems.length === 0) {
    try {
      // The live guard is the user's confirmation on the command line, not something a file grants itself.
      target = resolveTarget({ ...env, CONFORMANCE_ALLOW_LIVE: process.env.CONFORMANCE_ALLOW_LIVE });
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(...error.problems);
    }
  }
  if (problems.length > 0 || !target) return { problems: problems.map((p) => `${file} (${side}): ${p}`) };
  return { loaded: { side, file, env, target }, problems: [] };
}

/** Both files, validated before any request. Throws FidelityConfigError listing the problems of both. */
export function loadTargets(fileA: string, fileB: string): [LoadedTarget, LoadedTarget] {
  const a = loadOne('A', fileA);
  const b = loadOne('B', fileB);
  const problems = [...a.problems, ...b.problems];
  if (problems.length > 0 || !a.loaded || !b.loaded) throw new FidelityConfigError(problems);
  return [a.loaded, b.loaded];
}

/** Whether the file sets a variable (non-empty). */
export function sets(t: LoadedTarget, name: string): boolean {
  return (t.env[name]?.trim() ?? '') !== '';
}
