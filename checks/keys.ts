/**
 * CFG-KEYS (§2 "An API key is a secret string in the format sk_[ENVIRONMENT]_[RANDOM_HASH]", §5.1): each configured
 * key has the format of its slot — the test key `sk_test_…`, the live key `sk_live_…`, the others either. Judged
 * from the configuration, before any request: the config loader refuses a run whose keys fail it (a set-up
 * mistake, exit 2), and the check of specs/5-authentication.spec.ts judges the keys a target announced (the bundled
 * mock's, in the self-test) by the same function. A problem names the variable, never its value.
 */
import { KEY_VARS, type KeySlot } from '../core/model/credentials.ts';
import type { Violation } from '../core/model/verdict.ts';
import { isLiveKey, isTestKey } from './schemas.ts';

/** Which key format each slot must have. Restricted, revoked and old keys may be of either mode. */
const SLOT_FORMAT: Record<KeySlot, 'test' | 'live' | 'any'> = {
  test: 'test',
  live: 'live',
  restricted: 'any',
  revoked: 'any',
  old: 'any',
};

const WANT = { test: 'sk_test_<hash>', live: 'sk_live_<hash>', any: 'sk_test_<hash> or sk_live_<hash>' } as const;

export interface KeyFormatProblem {
  variable: string;
  /** The format the slot needs, e.g. `sk_live_<hash>`. */
  want: string;
}

/** The configured keys that lack the format of their slot. */
export function keyFormatProblems(keys: Partial<Record<KeySlot, string>>): KeyFormatProblem[] {
  const problems: KeyFormatProblem[] = [];
  for (const slot of Object.keys(SLOT_FORMAT) as KeySlot[]) {
    const value = keys[slot];
    if (value === undefined) continue;
    const format = SLOT_FORMAT[slot];
    const ok =
      format === 'test'
        ? isTestKey(value)
        : format === 'live'
          ? isLiveKey(value)
          : isTestKey(value) || isLiveKey(value);
    if (!ok) problems.push({ variable: KEY_VARS[slot], want: WANT[format] });
  }
  return problems;
}

/** CFG-KEYS: one violation naming every configured key that lacks the format of its slot. */
export function keyFormatViolation(keys: Partial<Record<KeySlot, string>>): Violation | undefined {
  const problems = keyFormatProblems(keys);
  if (problems.length === 0) return undefined;
  return {
    rule: 'CFG-KEYS',
    expected: problems.map((p) => `${p.variable} in the ${p.want} format of its slot`).join('; '),
    received: problems.map((p) => `${p.variable} does not have that format`).join('; '),
  };
}
