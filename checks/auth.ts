/**
 * Pure checks on the status code an authenticated (or unauthenticated) request got, and on key secrecy:
 * `(exchange, what was sent) → Violation | undefined`. The specs decide which credential goes to which endpoint.
 * Error bodies are not shown by the spec (reading.md "Bodies and headers"): only the status is judged. Each is a fact
 * of one answer, which no payment appearing explains: it stands when the data moved under the check.
 */

import { type Exchange, is2xx } from '../core/model/exchange.ts';
import type { RuleId } from '../core/model/rules.ts';
import { excerpt, type Violation } from '../core/model/verdict.ts';

/** The rules whose requirement is "this credential is refused with 401". */
type UnauthorizedRule = Extract<RuleId, 'AUTH-MISSING' | 'AUTH-INVALID' | 'AUTH-REVOKED' | 'AUTH-FIRST' | 'ADV-SCHEME'>;

/** What went over the wire, for the Expected line: `Authorization: Bearer $API_TEST_KEY truncated … on GET /path`. */
function sent(e: Exchange, why?: string): string {
  return `${why ? `${why}: ` : ''}${e.authLabel} on ${e.method} ${e.path}`;
}

/** Why a wrong status matters, for the Received line (a hint, not a verdict). */
function hint(e: Exchange, hints: Partial<Record<number | '2xx', string>>): string {
  const h = hints[e.status] ?? (is2xx(e.status) ? hints['2xx'] : undefined);
  return h ? `${excerpt(e)} (${h})` : excerpt(e);
}

/** AUTH-MISSING / -INVALID / -REVOKED / -FIRST / ADV-SCHEME: the request is refused with exactly 401. */
export function unauthorizedViolation(rule: UnauthorizedRule, e: Exchange, why?: string): Violation | undefined {
  if (e.status === 401) return undefined;
  return {
    standsUnderGrowth: true,
    rule,
    expected: `HTTP 401 for ${sent(e, why)}`,
    received: hint(e, {
      '2xx': rule === 'AUTH-MISSING' ? 'served without any key' : 'this credential was accepted',
      403: '403 says the key is valid but lacks a permission',
      404: 'the key check must come first: a 404 tells a caller what exists',
    }),
    exchange: e,
  };
}

/** AUTH-STATUS: `/merchant/status` accepts every valid key; its payload is not shown, so any 2xx. */
export function statusAcceptedViolation(e: Exchange): Violation | undefined {
  if (is2xx(e.status)) return undefined;
  return {
    standsUnderGrowth: true,
    rule: 'AUTH-STATUS',
    expected: `any 2xx for ${sent(e, 'a valid key')}`,
    received: hint(e, { 403: '/merchant/status only checks that the key is accepted; it needs no permission' }),
    exchange: e,
  };
}

/** A key this merchant's listing allows (MODE-TEST-SANDBOX, MODE-TEST-LIVE, MODE-LIVE-LIVE): 200; `who` in words. */
export function allowedViolation(
  rule: Extract<RuleId, 'MODE-TEST-SANDBOX' | 'MODE-TEST-LIVE' | 'MODE-LIVE-LIVE'>,
  e: Exchange,
  who: string,
): Violation | undefined {
  if (e.status === 200) return undefined;
  return { standsUnderGrowth: true, rule, expected: `HTTP 200 for ${sent(e, who)}`, received: excerpt(e), exchange: e };
}

/** MODE-LIVE-SANDBOX: a sandbox merchant is an object of the other mode for a live key: 404 (§5.6, §7). */
export function otherModeViolation(e: Exchange): Violation | undefined {
  if (e.status === 404) return undefined;
  return {
    standsUnderGrowth: true,
    rule: 'MODE-LIVE-SANDBOX',
    expected: `HTTP 404 for ${sent(e, 'the live key on the sandbox merchant')}`,
    received: hint(e, {
      '2xx': 'a live key must not reach sandbox data',
      403: '§7 answers an object of the other mode with 404, not 403',
    }),
    exchange: e,
  };
}

/**
 * A spelling of a spec path (a trailing slash, a doubled slash, an encoded character): where the target serves it
 * (the test key got a 2xx there), the answer is the one the spec's path gets (`whenServed`); where it does not, any
 * answer but a 2xx. Never data for a credential that may not read it.
 */
export function spelledPathViolation(
  rule: RuleId,
  e: Exchange,
  spelling: { name: string; served: boolean; whenServed: readonly number[]; why: string },
): Violation | undefined {
  const ok = spelling.served ? spelling.whenServed.includes(e.status) : !is2xx(e.status);
  if (ok) return undefined;
  const want = spelling.served
    ? `HTTP ${spelling.whenServed.join(' or ')}, as on the spec's spelling (the test key is served there)`
    : 'no 2xx (the test key is not served there either)';
  return {
    standsUnderGrowth: true,
    rule,
    expected: `${want} for ${sent(e, spelling.why)}, a spelling with ${spelling.name}`,
    received: hint(e, { '2xx': 'served by a route that skipped this check' }),
    exchange: e,
  };
}

/**
 * ADV-UNKNOWN-PATH: without a valid key, a path the spec does not show gets 401. A 404 is a legal answer of a
 * target that routes before it authenticates (the path may not exist): accepted, and reported as a finding.
 */
export function unknownPathViolation(e: Exchange, why?: string): Violation | undefined {
  if (e.status === 401) return undefined;
  return {
    standsUnderGrowth: true,
    rule: 'ADV-UNKNOWN-PATH',
    expected: `HTTP 401 for ${sent(e, why)} (a path the spec does not show)`,
    received: hint(e, {
      404: 'accepted: the target routes before it authenticates, so it tells which paths exist',
      '2xx': 'served without a valid key',
    }),
    exchange: e,
  };
}

/**
 * ADV-SCHEME: a valid key written another way than the spec's `Bearer <key>` (`bearer`, `BEARER`, two spaces) is
 * refused with 401. Legal (the spec names one spelling), but RFC 9110 makes the scheme case-insensitive: a finding.
 * Any other answer is the access matrix's to judge (the canonical answer, never a more open one).
 */
export function spellingRefusedViolation(e: Exchange): Violation | undefined {
  if (e.status !== 401) return undefined;
  return {
    standsUnderGrowth: true,
    rule: 'ADV-SCHEME',
    expected: `the answer of \`Bearer <key>\` (RFC 9110 §11.1: the scheme is case-insensitive) for ${sent(e, 'a valid key')}`,
    received: hint(e, { 401: 'a valid key refused for the way the header is written' }),
    exchange: e,
  };
}

/** KEY-SECRET: no response body or header contains the presented key (as sent, tampered or not). */
export function keyLeakViolation(e: Exchange): Violation | undefined {
  if (e.keyLeak === undefined) return undefined;
  return {
    standsUnderGrowth: true,
    rule: 'KEY-SECRET',
    expected: `no trace of the presented key in the response to ${sent(e)}`,
    received: `HTTP ${e.status} whose ${e.keyLeak} contains the presented key`,
    exchange: e,
  };
}

/**
 * The first violation of several requests checked for one rule, telling how many others failed and attaching
 * their exchanges (the report shows the first few curl lines).
 */
export function firstViolation(violations: ReadonlyArray<Violation | undefined>): Violation | undefined {
  const found = violations.filter((v): v is Violation => v !== undefined);
  const [first, ...rest] = found;
  if (!first) return undefined;
  if (rest.length === 0) return first;
  const others = rest.map((v) => v.exchange).filter((e): e is Exchange => e !== undefined);
  return {
    ...first,
    received: `${first.received}; and ${rest.length} more: ${others.map((e) => `HTTP ${e.status} for ${e.authLabel} on ${e.path}`).join('; ')}`,
    related: [...(first.related ?? []), ...others],
  };
}
