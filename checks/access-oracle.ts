/**
 * The access oracle (payment-api.md §5, §7; reading.md "Keys, modes, merchants", "Methods"): for any request —
 * method, credential, header spelling, endpoint, merchant, query — the rule that fixes its answer and the statuses
 * that rule allows. Pure: `(case) → expectation`, `(case, exchange) → Violation | undefined`.
 */

import { type AccessCase, type AccessExpectation, isValidCredential, type MerchantRole } from '../core/model/access.ts';
import { type HeaderSpelling, type KeySlot, VALID_SLOTS } from '../core/model/credentials.ts';
import type { SafeMethod } from '../core/model/endpoints.ts';
import { type Exchange, is2xx } from '../core/model/exchange.ts';
import { describeRequest, MAX_LIMIT, type PageRequest } from '../core/model/listing.ts';
import type { AccessRule } from '../core/model/rules.ts';
import { excerpt, standsUnderGrowth, type Violation } from '../core/model/verdict.ts';
import { recordsCarried } from './method-answers.ts';

const only =
  (...statuses: number[]) =>
  (s: number) =>
    statuses.includes(s);
const SANDBOX: readonly MerchantRole[] = ['sandbox', 'otherSandbox'];

/**
 * Whether the key stands as a word of its own after the scheme (spaces, leniently tabs) or alone (a bare key):
 * `Bearer<key>` is another credential, not the key.
 */
const separated = (s: HeaderSpelling) => s.scheme === '' || /^[ \t]+$/.test(s.gap);

/**
 * The rule and allowed statuses for a request written canonically (`Bearer <key>`). `keyMode` says which mode a
 * configured key works in (the restricted key may be of either).
 */
function canonical(c: AccessCase, keyMode: (slot: KeySlot) => 'test' | 'live'): AccessExpectation {
  const verb = c.preflight ? 'OPTIONS (a CORS pre-flight)' : (c.method ?? 'GET');
  const c0 = c.collection;
  const list = `the ${c0.name} list${c0.access.scope === 'merchant' ? ` of the ${c.merchant} merchant` : ''}`;
  const where = c.endpoint === 'status' ? `${verb} /merchant/status` : verb === 'GET' ? list : `${verb} to ${list}`;
  const cred = c.credential;
  const refused = (rule: AccessRule, what: string): AccessExpectation => ({
    rule: c.endpoint === 'list' && c.merchant === 'unknown' && rule !== 'AUTH-MISSING' ? 'AUTH-FIRST' : rule,
    allowed: only(401),
    answer: 'HTTP 401',
    what: `${what} on ${where}`,
  });
  if (cred.kind === 'none') return refused('AUTH-MISSING', 'no Authorization header');
  // An empty header carries no key either (§7: "the API key is missing").
  if (cred.kind === 'malformed' && cred.header.trim() === '')
    return refused('AUTH-MISSING', 'an empty Authorization header');
  if (cred.kind === 'malformed') return refused('AUTH-INVALID', 'a malformed Authorization header');
  if (cred.mutation) return refused('AUTH-INVALID', `the ${cred.slot} key ${cred.mutation.name}`);
  // More in the header than the key, or the key glued to its scheme: another credential (reading), refused by the
  // rule of the key's kind.
  const other = cred.around?.name ?? (separated(c.spelling) ? undefined : 'glued to its scheme');
  if (other) {
    const rule = VALID_SLOTS.includes(cred.slot) ? 'AUTH-INVALID' : 'AUTH-REVOKED';
    return refused(rule, `the ${cred.slot} key ${other}`);
  }
  if (!VALID_SLOTS.includes(cred.slot)) return refused('AUTH-REVOKED', `the ${cred.slot} key (revoked or rotated out)`);

  const mode = keyMode(cred.slot);
  const what = `the ${cred.slot} key (${mode} mode) on ${where}`;
  const expect = (rule: AccessRule, allowed: (s: number) => boolean, answer: string) => ({
    rule,
    allowed,
    answer,
    what,
  });
  if (c.endpoint === 'status') {
    // The status endpoint takes no query (§4.1): one may be refused as a bad request, which still accepts the key.
    return Object.keys(c.query).length === 0
      ? expect('AUTH-STATUS', is2xx, 'any 2xx (the key is accepted)')
      : expect('AUTH-STATUS', (s) => is2xx(s) || s === 400 || s === 422, 'any 2xx, or 400/422 for the query');
  }
  if (c.merchant === 'unknown') return expect('ADV-UNKNOWN-MERCHANT', only(404, 403), 'HTTP 404 (403 acceptable)');
  const sandbox = SANDBOX.includes(c.merchant);
  if (cred.slot === 'restricted') {
    // A valid key lacking the permission: 403. On a merchant of the other mode, 404 (§7) is as legal.
    return sandbox && mode === 'live'
      ? expect('AUTH-FORBIDDEN', only(403, 404), 'HTTP 403 (or 404 for the other mode), never 401 or 200')
      : expect('AUTH-FORBIDDEN', only(403), 'HTTP 403, never 401 or 200');
  }
  if (mode === 'test') return expect(sandbox ? 'MODE-TEST-SANDBOX' : 'MODE-TEST-LIVE', only(200), 'HTTP 200');
  return sandbox
    ? expect('MODE-LIVE-SANDBOX', only(404), 'HTTP 404 (an object of the other mode)')
    : expect('MODE-LIVE-LIVE', only(200), 'HTTP 200');
}

/**
 * The expectation for any spelling. The spec writes the header one way, `Bearer <key>` with one space (§5.1); RFC 9110
 * makes the scheme name case-insensitive and allows more spaces, but the spec does not ask a target to accept another
 * spelling. So a valid key in another spelling may get the canonical answer or a 401 (ADV-SCHEME reports that
 * refusal), never anything more permissive: a revoked or invalid key gets 401 in every spelling, a restricted key
 * never a 200, no spelling lets a key into another mode or merchant. The same holds for whitespace before or after
 * the key (HTTP strips it) and for another scheme or a bare key (accepting them is ADV-SCHEME's advisory finding).
 */
export function expectedAccess(c: AccessCase, keyMode: (slot: KeySlot) => 'test' | 'live'): AccessExpectation {
  const base = overMax(c, canonical(c, keyMode));
  if (isCanonical(c.spelling) || !isValidCredential(c.credential) || !separated(c.spelling))
    return byMethod(c.method, base);
  return byMethod(c.method, {
    ...base,
    allowed: (s) => base.allowed(s) || s === 401,
    answer: `${base.answer}, or 401 (a spelling other than "Bearer <key>" may be refused)`,
  });
}

/**
 * A limit above the collection's maximum may be refused as a bad request (§4.2: a 4xx, or the cap), whoever asks: a
 * 400 or 422 shows nothing, so it is legal beside the rule's answer (which a server that caps still owes).
 */
function overMax(c: AccessCase, exp: AccessExpectation): AccessExpectation {
  if (!((c.query.limit ?? 0) > (c.collection.maxLimit ?? MAX_LIMIT))) return exp;
  return {
    ...exp,
    allowed: (s) => exp.allowed(s) || s === 400 || s === 422,
    answer: `${exp.answer}, or 400/422 for the limit above ${c.collection.maxLimit ?? MAX_LIMIT}`,
  };
}

/** The refusals of a method the target does not serve (or serves only with a key): always legal for HEAD. */
const METHOD_REFUSALS: readonly number[] = [405, 404, 401];

/**
 * The expectation of GET's request sent with another safe method (reading "Methods"). HEAD is GET without a body
 * (RFC 9110 §9.3.2): GET's statuses, or a refusal (405, 404, 401); a 2xx only where GET's rule allows one. OPTIONS
 * may be answered without any key check (CORS pre-flight middleware), so any status but a 5xx, and a 2xx carries
 * no listing and no record; a violation names GET's rule, the boundary the answer crossed.
 */
function byMethod(method: SafeMethod | undefined, get: AccessExpectation): AccessExpectation {
  if (method === 'HEAD') {
    return {
      ...get,
      allowed: (s) => get.allowed(s) || METHOD_REFUSALS.includes(s),
      answer: `${get.answer}, or a refusal of HEAD (405, 404 or 401)`,
    };
  }
  if (method === 'OPTIONS') {
    return {
      ...get,
      allowed: (s) => s < 500,
      answer: 'any answer but a 5xx, and no listing or record in a 2xx',
      noRecords: true,
    };
  }
  return get;
}

/** The spec's own spelling of the header: `Bearer`, one space. */
export const isCanonical = (s: HeaderSpelling) => s.scheme === 'Bearer' && s.gap === ' ' && !s.lead && !s.trail;

/** The violation when the answer is not one the case's rule allows. */
export function accessViolation(exp: AccessExpectation, e: Exchange, query: PageRequest): Violation | undefined {
  const q = Object.keys(query).length > 0 ? ` with ${describeRequest(query)}` : '';
  const expected = `${exp.answer} for ${exp.what}${q} (${e.authLabel})`;
  if (exp.allowed(e.status)) {
    // An answer allowed by its status may still carry what it must not (OPTIONS: no listing, no record).
    const carried = exp.noRecords && is2xx(e.status) ? recordsCarried(e.json) : undefined;
    return carried === undefined
      ? undefined
      : standsUnderGrowth({ rule: exp.rule, expected, received: `${excerpt(e)} (carries ${carried})`, exchange: e });
  }
  const hints: Record<number, string> = {
    200: 'served',
    401: 'refused as an invalid key',
    403: 'refused as lacking a permission',
    404: 'answered as not found',
  };
  const hint = hints[e.status] ?? (e.status >= 500 ? 'a server error' : undefined);
  // One answer's status against its case: no payment appearing explains it.
  return standsUnderGrowth({
    rule: exp.rule,
    expected,
    received: `${excerpt(e)}${hint ? ` (${hint})` : ''}`,
    exchange: e,
  });
}
