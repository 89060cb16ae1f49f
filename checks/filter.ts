/**
 * Pure checks on `filter[status]` (payment-api.md §4.2; reading.md "Pagination"): a filtered listing holds only
 * records of that status, its `total` counts them in the unfiltered set, and the filter applies before
 * pagination, so pages stay full while matches remain. An unknown value gives a 4xx or an empty 200.
 */

import type { Exchange } from '../core/model/exchange.ts';
import { readEnvelope } from '../core/model/listing.ts';
import { statusOf } from '../core/model/result-set.ts';
import type { RuleId } from '../core/model/rules.ts';
import { derive, excerpt, type Violation } from '../core/model/verdict.ts';
import { pastEndBasis } from './envelope.ts';
import { fieldTotalViolation } from './field-filter.ts';
import { describeRecord, pageOf, type Walked } from './order.ts';

/** The records whose status is exactly `status`. */
export function withStatus(records: readonly unknown[], status: string): unknown[] {
  return records.filter((r) => statusOf(r) === status);
}

/** Case-changed forms of the known statuses that are not themselves known (`completed`, `Completed`). */
export function caseChanged(known: ReadonlySet<string>): string[] {
  const forms = [...known].flatMap((s) => [s.toLowerCase(), `${s.charAt(0)}${s.slice(1).toLowerCase()}`]);
  return [...new Set(forms)].filter((s) => s !== '' && !known.has(s));
}

/** The unfiltered set a filter is judged against (a ResultSet fits): its records, `total`, and whether it was read whole. */
export interface Unfiltered {
  records: readonly unknown[];
  total: number;
  complete: boolean;
}

/**
 * How many records have `status`: exact when the unfiltered set was read whole; when it was capped, at least
 * the matches read and at most `total` minus the non-matches read.
 */
export function expectedMatches(all: Unfiltered, status: string): { min: number; max: number } {
  const seen = withStatus(all.records, status).length;
  if (all.complete) return { min: seen, max: seen };
  return { min: seen, max: all.total - (all.records.length - seen) };
}

/** FLT-STATUS / SRT-FILTER: every record read has exactly the status filtered on (case included). */
export function statusViolation(walk: Walked, status: string, rule: RuleId): Violation | undefined {
  const wrong = walk.records.findIndex((r) => statusOf(r) !== status);
  if (wrong < 0) return undefined;
  const count = walk.records.filter((r) => statusOf(r) !== status).length;
  return {
    rule,
    expected: `filter[status]=${status}: every record has status ${JSON.stringify(status)}`,
    received: `${count} of ${walk.records.length} records have another status, e.g. record #${wrong} (${describeRecord(walk.records[wrong])}) has status ${JSON.stringify(statusOf(walk.records[wrong]))}`,
    exchange: pageOf(walk, wrong).page,
  };
}

/** FLT-STATUS: a filtered page's `total` is the number of `status` records in the unfiltered set (any field's filter). */
export function filteredTotalViolation(
  e: Exchange,
  status: string,
  matches: { min: number; max: number },
  unfilteredTotal: number,
): Violation | undefined {
  return fieldTotalViolation(e, { field: 'status', value: status }, matches, unfilteredTotal);
}

/** FLT-STATUS: a status value the target does not have gives a 4xx, or a 200 with total 0 and data []. */
export function unknownStatusViolation(e: Exchange, value: string): Violation | undefined {
  if (e.status >= 400 && e.status < 500) return undefined;
  const env = readEnvelope(e);
  if (env && env.total === 0 && env.data.length === 0) return undefined;
  const got = env
    ? `HTTP 200 with total ${env.total} and ${env.data.length} records${env.data.length ? `, e.g. ${describeRecord(env.data[0])} status ${JSON.stringify(statusOf(env.data[0]))}` : ''}`
    : excerpt(e);
  return {
    rule: 'FLT-STATUS',
    expected: `filter[status]=${JSON.stringify(value)} (no such status; values match exactly, case included): a 4xx, or HTTP 200 with total 0 and data []`,
    received: got,
    exchange: e,
  };
}

/**
 * FLT-BEFORE-PAGE: a filtered page at (offset, limit) holds max(0, min(limit, matches - offset)) records, where
 * `matches` counts the status in the unfiltered set: filtering a page after cutting it leaves it short.
 */
export function fullPageViolation(
  e: Exchange,
  status: string,
  sent: { offset: number; limit: number },
  matches: number,
): Violation | undefined {
  const want = Math.max(0, Math.min(sent.limit, matches - sent.offset));
  const env = readEnvelope(e);
  if (!env) {
    return {
      rule: 'FLT-BEFORE-PAGE',
      expected: `HTTP 200 with ${want} records (filter[status]=${status}, offset ${sent.offset}, limit ${sent.limit})`,
      received: excerpt(e),
      exchange: e,
    };
  }
  if (env.data.length === want) return undefined;
  const v: Violation = {
    rule: 'FLT-BEFORE-PAGE',
    expected: `filter[status]=${status} offset ${sent.offset} limit ${sent.limit}: ${want} records (${matches} ${status} records in all: the filter applies before pagination)`,
    received: `${env.data.length} records (total ${env.total})`,
    exchange: e,
  };
  return derive(v, pastEndBasis(e));
}
