/**
 * CFG-KEYS (§2 "An API key is a secret string in the format sk_[ENVIRONMENT]_[RANDOM_HASH]", §5.1): each configured
 * key has the format of its slot — the test key `sk_test_…`, the live key `sk_live_…`, the others either. Judged
 * from the configuration, before any request: the config loader refuses a run whose keys fail it (a set-up
 * mistake, exit 2), and the check of specs/5-authentication.spec.ts judges the keys a target announced (the bundled
 * mock's, in the self-test) by the same function. A problem names the variable, never its value.
 */
import { type KeySlot, keyFormatProblems } from '../core/model/credentials.ts';
import type { Violation } from '../core/model/verdict.ts';

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
