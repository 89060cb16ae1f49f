/**
 * What a spelling of a merchant id must get (reading "Keys, modes, merchants": a spelling the target resolves to a
 * merchant obeys the key, mode and merchant rules of that merchant; one it does not resolve may get 404, 403, 401 or a
 * redirect). The access oracle's canonical answer, held where the target resolved the spelling to the merchant the
 * id names, relaxed elsewhere to what any merchant id allows that credential. Pure; `accessViolation` words a failure.
 */

import {
  type AccessExpectation,
  isValidCredential,
  type SpelledCase,
  type SpellingFacts,
} from '../core/model/access.ts';
import { PAYMENTS } from '../core/model/collection.ts';
import type { KeySlot } from '../core/model/credentials.ts';
import { type Exchange, is2xx } from '../core/model/exchange.ts';
import { expectedAccess } from './access-oracle.ts';

const standing = (f: Pick<SpellingFacts, 'served' | 'resolved'>) =>
  f.resolved
    ? 'the test key is served it as that merchant'
    : f.served
      ? 'the test key is served it'
      : 'the test key is not served it';

/**
 * The expectation for a spelled payments path:
 * - without a valid key (none, invalid, revoked): 401 wherever the test key is served, and never a 2xx anywhere;
 * - a valid key (live, restricted): the canonical answer (404 for the live key on a sandbox merchant, 403 for the
 *   restricted key) where the target resolved the spelling to the merchant; elsewhere any answer but a 2xx that
 *   carries a record the key may not see.
 */
export function spelledExpectation(
  c: SpelledCase,
  facts: SpellingFacts,
  keyMode: (slot: KeySlot) => 'test' | 'live',
): AccessExpectation {
  const base = expectedAccess(
    {
      credential: c.credential,
      spelling: { scheme: 'Bearer', gap: ' ' },
      endpoint: 'list',
      merchant: c.merchant,
      collection: PAYMENTS,
      query: c.query,
    },
    keyMode,
  );
  const what = `${base.what}, spelled with ${c.spelling} (${standing(facts)})`;
  const valid = isValidCredential(c.credential);
  if (valid ? facts.resolved : facts.served) return { ...base, what };
  if (!valid) {
    return {
      ...base,
      allowed: (s) => !is2xx(s),
      answer: 'no 2xx (a spelling the test key is not served may get 404, 403, 401 or a redirect)',
      what,
    };
  }
  return {
    ...base,
    allowed: (s) => !(is2xx(s) && facts.forbiddenRecords > 0),
    answer: 'no record this key may not see (a spelling not resolved to the merchant may get any other answer)',
    what:
      facts.forbiddenRecords > 0
        ? `${what}; the answer holds ${facts.forbiddenRecords} record(s) it may not see`
        : what,
  };
}

/** Whether the canonical answer settles the case whatever the facts: a refusal the rule asks for on any spelling. */
export function settledWithoutFacts(exp: AccessExpectation, e: Exchange): boolean {
  return !is2xx(e.status) && exp.allowed(e.status);
}
