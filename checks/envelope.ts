/**
 * Pure checks on one listing response: `(exchange, what was sent) → Violation | undefined`.
 * They read the response only; the specs decide which requests to send.
 */

import { type Collection, PAYMENTS } from '../core/model/collection.ts';
import { type Exchange, isClientError } from '../core/model/exchange.ts';
import {
  echoesAsSent,
  limitInForce,
  MAX_LIMIT,
  pageSize,
  readEnvelope,
  sizeBreakOf,
  type Window,
} from '../core/model/listing.ts';
import { type Derivation, derive, excerpt, type Violation } from '../core/model/verdict.ts';
import { validateEnvelope, validatePayment } from './schemas.ts';

/**
 * ENV-SCHEMA: a 200 listing matches the envelope schema, and each record its collection's record schema where it has
 * one (payments: the payment record; another collection's records have no schema the spec shows).
 */
export function envelopeViolation(e: Exchange, of: Pick<Collection, 'records'> = PAYMENTS): Violation | undefined {
  if (e.status !== 200) {
    return { rule: 'ENV-SCHEMA', expected: 'HTTP 200 with a listing envelope', received: excerpt(e), exchange: e };
  }
  if (e.json === undefined) {
    return { rule: 'ENV-SCHEMA', expected: 'a JSON body', received: `not JSON: ${excerpt(e)}`, exchange: e };
  }
  const problems = validateEnvelope(e.json);
  if (problems.length > 0) {
    const list = problems.map((p) => p.message).join('; '); // each message starts with its JSON pointer
    return { rule: 'ENV-SCHEMA', expected: 'the §2 envelope', received: list, exchange: e };
  }
  if (of.records !== 'payment') return undefined;
  const data = (e.json as { data: unknown[] }).data;
  for (const [i, record] of data.entries()) {
    const bad = validatePayment(record, `/data/${i}`);
    if (bad.length > 0) {
      const list = bad.map((p) => p.message).join('; ');
      return {
        rule: 'ENV-SCHEMA',
        expected: 'payment records with `status` and a numeric `amount`',
        received: list,
        exchange: e,
      };
    }
  }
  return undefined;
}

/**
 * PAG-ECHO: `offset` echoed as sent (0 if omitted), `limit` echoed as the limit in force. Only for a 200. Over the cap
 * the limit in force is LIM-CAP's (100): an answer that breaks the cap says the echo may follow from it.
 */
export function echoViolation(e: Exchange, sent: Window, defaultLimit: number, max = MAX_LIMIT): Violation | undefined {
  const env = readEnvelope(e);
  if (!env) return undefined; // not a usable 200: other checks judge it
  if (echoesAsSent(env, sent, defaultLimit, max)) return undefined;
  const offset = sent.offset ?? 0;
  const limit = limitInForce(sent, defaultLimit, max);
  const over = sent.limit !== undefined && sent.limit > max;
  const v: Violation = {
    rule: 'PAG-ECHO',
    expected: `offset ${offset}${sent.offset === undefined ? ' (omitted)' : ''}, limit ${limit}${sent.limit === undefined ? ' (omitted: the default)' : over ? ` (${sent.limit} clamped)` : ''}`,
    received: `offset ${env.offset}, limit ${env.limit}`,
    exchange: e,
  };
  return derive(v, capBasis(e, sent, max));
}

/**
 * Over the cap, the limit in force is LIM-CAP's (100): an expectation that takes it for the limit rests on the cap,
 * and an answer that breaks the cap says so.
 */
export function capBasis(e: Exchange, sent: Window, max = MAX_LIMIT): Derivation[] {
  if (sent.limit === undefined || sent.limit <= max) return [];
  const cap = capViolation(e, sent.limit, max);
  const why = `limit ${sent.limit} was sent, so the limit in force is the cap of LIM-CAP, which the answer breaks (${cap?.received})`;
  return cap ? [{ rule: 'LIM-CAP', why }] : [];
}

/**
 * What an expectation computed from a page's own echo and total rests on, where that breaks another rule: an echo
 * other than what was sent (PAG-ECHO), a total other than the listing's reference read (PAG-TOTAL, when one is known).
 */
export function pageBasis(
  e: Exchange,
  sent: Window,
  defaultLimit: number,
  referenceTotal?: number,
  max = MAX_LIMIT,
): Derivation[] {
  const env = readEnvelope(e);
  if (!env) return [];
  const echo = echoViolation(e, sent, defaultLimit, max);
  const total = referenceTotal !== undefined && env.total !== referenceTotal;
  return [
    ...(echo
      ? [
          {
            rule: 'PAG-ECHO' as const,
            why: `the expectation used the page's echo (${echo.received}), not what was sent (${echo.expected})`,
          },
        ]
      : []),
    ...(total
      ? [
          {
            rule: 'PAG-TOTAL' as const,
            why: `the expectation used the page's total ${env.total}, where the listing's reference read says ${referenceTotal}`,
          },
        ]
      : []),
  ];
}

/** PAG-DEFAULT: with `limit` omitted the default is in force (echoed, and the page holds that many when available). */
export function defaultLimitViolation(e: Exchange, defaultLimit: number): Violation | undefined {
  const env = readEnvelope(e);
  if (!env) {
    return { rule: 'PAG-DEFAULT', expected: 'HTTP 200 listing with limit omitted', received: excerpt(e), exchange: e };
  }
  const expectedSize = Math.max(0, Math.min(defaultLimit, env.total - env.offset));
  if (env.limit === defaultLimit && env.data.length === expectedSize) return undefined;
  const v: Violation = {
    rule: 'PAG-DEFAULT',
    expected: `limit ${defaultLimit} in force: echoed ${defaultLimit}, ${expectedSize} records (total ${env.total})`,
    received: `limit echoed ${env.limit}, ${env.data.length} records`,
    exchange: e,
  };
  // With the default echoed, the size expected is PAG-SIZE's for this page: a page that breaks it fails both.
  const size = env.limit === defaultLimit ? sizeBreak(e) : undefined;
  const why = `with the default limit echoed, the size expected is PAG-SIZE's, and the page ${size}`;
  return derive(v, size ? [{ rule: 'PAG-SIZE', why }] : []);
}

/** How a page breaks PAG-SIZE, for a finding that may follow from it: `holds 9 records where its own … call for 10`. */
function sizeBreak(e: Exchange): string | undefined {
  const env = readEnvelope(e);
  return env && sizeBreakOf(env);
}

/** PAG-SIZE: data.length = max(0, min(limit, total - offset)), from the echoed values. */
export function sizeViolation(e: Exchange): Violation | undefined {
  const env = readEnvelope(e);
  if (!env) return undefined;
  const expected = pageSize(env);
  if (env.data.length === expected) return undefined;
  const v: Violation = {
    rule: 'PAG-SIZE',
    expected: `${expected} records (offset ${env.offset}, limit ${env.limit}, total ${env.total})`,
    received: `${env.data.length} records`,
    exchange: e,
  };
  return derive(v, pastEndBasis(e));
}

/**
 * A page at or past its own total that holds records breaks PAG-EMPTY by itself (offset >= total gives data []): a
 * finding about that page's size may follow from it.
 */
export function pastEndBasis(e: Exchange): Derivation[] {
  const env = readEnvelope(e);
  if (!env || env.offset < env.total || env.data.length === 0) return [];
  const why = `the page is at or past its own total (offset ${env.offset}, total ${env.total}) and holds ${env.data.length} records, where PAG-EMPTY asks data []`;
  return [{ rule: 'PAG-EMPTY', why }];
}

/**
 * PAG-EMPTY: `total` 0 gives []; `offset` >= `total` gives [] with `total` unchanged (`knownTotal`, from
 * another page of the same query). A 4xx is legal only for absurd offsets (`absurdAllowed`). Whether the page
 * is past the end follows from the offset *sent*: a wrong echo must not hide records served past the end.
 */
export function emptyViolation(
  e: Exchange,
  sentOffset: number,
  knownTotal: number,
  absurdAllowed: boolean,
): Violation | undefined {
  if (absurdAllowed && isClientError(e.status)) return undefined;
  const env = readEnvelope(e);
  if (!env) {
    return {
      rule: 'PAG-EMPTY',
      expected: `HTTP 200 with data [] and total ${knownTotal}`,
      received: excerpt(e),
      exchange: e,
    };
  }
  const pastEnd = sentOffset >= knownTotal || env.total === 0;
  if (!pastEnd || (env.data.length === 0 && env.total === knownTotal)) return undefined;
  const v: Violation = {
    rule: 'PAG-EMPTY',
    expected: `data [] and total ${knownTotal} (offset ${sentOffset} is at or past the end)`,
    received: `${env.data.length} records, total ${env.total}`,
    exchange: e,
  };
  // Records on a page whose own total disagrees with the other read's: where the end is depends on which is right.
  const why = `the page says total ${env.total} where another read of the query says ${knownTotal}: where the end is depends on which total is right`;
  return derive(v, env.data.length > 0 && env.total !== knownTotal ? [{ rule: 'PAG-TOTAL', why }] : []);
}

/**
 * LIM-CAP: `limit` > 100 never yields more than 100 records: a 4xx, or a 200 echoing limit 100 (`max`: another
 * collection's maximum).
 */
export function capViolation(e: Exchange, requested: number, max = MAX_LIMIT): Violation | undefined {
  if (isClientError(e.status)) return undefined;
  const env = readEnvelope(e);
  if (!env) {
    return {
      rule: 'LIM-CAP',
      expected: `a 4xx, or HTTP 200 echoing limit ${max} (limit=${requested} sent)`,
      received: excerpt(e),
      exchange: e,
    };
  }
  if (env.data.length > max || env.limit !== max) {
    return {
      rule: 'LIM-CAP',
      standsUnderGrowth: true, // one answer's records against its own limit
      expected: `at most ${max} records and limit echoed as ${max} (limit=${requested} sent)`,
      received: `${env.data.length} records, limit echoed ${env.limit}`,
      exchange: e,
    };
  }
  return undefined;
}

/**
 * LIM-CAP for a limit over 100 written some other way (exponent, decimal, a sign, leading zeros, repeated): the
 * target may read it as any number, or refuse it, but never serve more than 100 records: a 4xx, or a 200 that
 * echoes a limit of at most 100 and holds no more records than it echoes.
 */
export function capNotationViolation(e: Exchange, written: string, max = MAX_LIMIT): Violation | undefined {
  if (isClientError(e.status)) return undefined;
  const env = readEnvelope(e);
  if (!env) {
    return {
      rule: 'LIM-CAP',
      expected: `a 4xx, or HTTP 200 with at most ${max} records for ${written}`,
      received: excerpt(e),
      exchange: e,
    };
  }
  if (env.data.length <= Math.min(max, env.limit) && env.limit <= max) return undefined;
  return {
    rule: 'LIM-CAP',
    standsUnderGrowth: true, // one answer's records against its own limit
    expected: `at most ${max} records, and no more than the limit echoed (at most ${max}), for ${written}`,
    received: `${env.data.length} records, limit echoed ${env.limit}`,
    exchange: e,
  };
}

/**
 * LIM-CAP for a limit a query builder may read as none at all (0, a negative one): whatever else a 2xx says (INP-ROBUST
 * judges its envelope), it holds at most the cap of records.
 */
export function capOnlyViolation(e: Exchange, written: string, max = MAX_LIMIT): Violation | undefined {
  if (e.status < 200 || e.status >= 300) return undefined;
  const data = (e.json as { data?: unknown } | undefined)?.data;
  const n = Array.isArray(data) ? data.length : 0;
  if (n <= max) return undefined;
  return {
    rule: 'LIM-CAP',
    standsUnderGrowth: true, // one answer's records against the cap
    expected: `at most ${max} records for ${written}, a limit a query builder may read as none`,
    received: `HTTP ${e.status} with ${n} records`,
    exchange: e,
  };
}

/** INP-ROBUST: odd input gets a 4xx, or a 200 whose envelope satisfies every invariant; never a 5xx. */
export function robustnessViolation(
  e: Exchange,
  label: string,
  of: Pick<Collection, 'records'> = PAYMENTS,
): Violation | undefined {
  if (e.status >= 500) {
    return { rule: 'INP-ROBUST', expected: `a 4xx or a valid 200 for ${label}`, received: excerpt(e), exchange: e };
  }
  if (e.status !== 200) return undefined;
  const broken = envelopeViolation(e, of) ?? sizeViolation(e);
  if (!broken) return undefined;
  const v: Violation = {
    rule: 'INP-ROBUST',
    expected: `a 200 to ${label} satisfies the envelope invariants`,
    received: broken.received,
    exchange: e,
  };
  // The invariant broken is another rule's: an API that breaks it on any input fails that rule too.
  const size = sizeBreak(e);
  const why = `the invariant the answer breaks is ${broken.rule}'s (${size ? `the page ${size}` : broken.expected})`;
  return derive(v, [{ rule: broken.rule, why }]);
}
