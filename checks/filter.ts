/**
 * Pure checks on a collection's `filter[<field>]` (payment-api.md §4.2; reading.md "Pagination", "More collections"):
 * a filtered listing holds only records whose field has the value (a scalar read as text: `filter[count]=3` matches
 * 3), its `total` counts them in the unfiltered set, and the filter applies before pagination, so pages stay full
 * while matches remain. A value no record has gives a 4xx or an empty 200.
 */
import type { Exchange } from '../core/model/exchange.ts';
import { type FieldFilter, readEnvelope } from '../core/model/listing.ts';
import { asText, fieldOf } from '../core/model/result-set.ts';
import type { RuleId } from '../core/model/rules.ts';
import { derive, excerpt, type Violation } from '../core/model/verdict.ts';
import { pastEndBasis } from './envelope.ts';
import { describeRecord, pageOf, type Walked } from './order.ts';

/** `filter[reason]="duplicate"`, for reports. */
const describeFilter = (f: FieldFilter) => `filter[${f.field}]=${JSON.stringify(f.value)}`;

/** Whether the record's field has the filter's value, case included. */
const matches = (record: unknown, f: FieldFilter) => asText(fieldOf(record, f.field)) === f.value;

/** The records that match the filter, when one is given. */
export const matching = (records: readonly unknown[], f?: FieldFilter): unknown[] =>
  f ? records.filter((r) => matches(r, f)) : [...records];

/** Case-changed forms of the known values that are not themselves known (`completed`, `Completed`). */
export function caseChanged(known: ReadonlySet<string>): string[] {
  const forms = [...known].flatMap((s) => [s.toLowerCase(), `${s.charAt(0)}${s.slice(1).toLowerCase()}`]);
  return [...new Set(forms)].filter((s) => s !== '' && !known.has(s));
}

/** The unfiltered set a filter is judged against (a ResultSet fits): its records, `total`, and whether it was read whole. */
interface Unfiltered {
  records: readonly unknown[];
  total: number;
  complete: boolean;
}

/**
 * How many records match: exact when the unfiltered set was read whole; when it was capped, at least the matches read
 * and at most `total` minus the non-matches read.
 */
export function expectedMatches(all: Unfiltered, f: FieldFilter): { min: number; max: number } {
  const seen = matching(all.records, f).length;
  return all.complete ? { min: seen, max: seen } : { min: seen, max: all.total - (all.records.length - seen) };
}

/** The filter rule (FLT-STATUS, SRT-FILTER): every record read has the filter's value. */
export function filterViolation(walk: Walked, f: FieldFilter, rule: RuleId): Violation | undefined {
  const wrong = walk.records.findIndex((r) => !matches(r, f));
  if (wrong < 0) return undefined;
  const count = walk.records.filter((r) => !matches(r, f)).length;
  return {
    rule,
    standsUnderGrowth: true, // a record one answer holds: no payment appearing explains it
    expected: `${describeFilter(f)}: every record has ${f.field} ${JSON.stringify(f.value)}`,
    received: `${count} of ${walk.records.length} records have another, e.g. record #${wrong} (${describeRecord(walk.records[wrong], f.field)})`,
    exchange: pageOf(walk, wrong).page,
  };
}

/** The filter rule: a filtered page's `total` is the number of matching records of the unfiltered set. */
export function filteredTotalViolation(
  e: Exchange,
  f: FieldFilter,
  want: { min: number; max: number },
  unfilteredTotal: number,
  rule: RuleId,
): Violation | undefined {
  const env = readEnvelope(e);
  if (!env) return { rule, expected: `HTTP 200 listing for ${describeFilter(f)}`, received: excerpt(e), exchange: e };
  if (env.total >= want.min && env.total <= want.max) return undefined;
  const n = want.min === want.max ? `${want.min}` : `between ${want.min} and ${want.max}`;
  const hint = env.total === unfilteredTotal && unfilteredTotal !== want.max ? ' (the unfiltered total)' : '';
  return {
    rule,
    expected: `${describeFilter(f)}: total ${n}, the records with ${f.field} ${JSON.stringify(f.value)} of the unfiltered set (total ${unfilteredTotal})`,
    received: `total ${env.total}${hint}`,
    exchange: e,
  };
}

/** The filter rule: a value no record has gives a 4xx, or a 200 with total 0 and data []. */
export function unknownValueViolation(e: Exchange, f: FieldFilter, rule: RuleId): Violation | undefined {
  if (e.status >= 400 && e.status < 500) return undefined;
  const env = readEnvelope(e);
  if (env && env.total === 0 && env.data.length === 0) return undefined;
  const got = env
    ? `HTTP 200 with total ${env.total} and ${env.data.length} records${env.data.length ? `, e.g. ${describeRecord(env.data[0], f.field)}` : ''}`
    : excerpt(e);
  return {
    rule,
    expected: `${describeFilter(f)} (a value no record has; values match exactly, never as a pattern): a 4xx, or HTTP 200 with total 0 and data []`,
    received: got,
    exchange: e,
  };
}

/**
 * FLT-BEFORE-PAGE: a filtered page at (offset, limit) holds max(0, min(limit, matches - offset)) records, where
 * `matches` counts the value in the unfiltered set: filtering a page after cutting it leaves it short.
 */
export function fullPageViolation(
  e: Exchange,
  f: FieldFilter,
  sent: { offset: number; limit: number },
  count: number,
): Violation | undefined {
  const want = Math.max(0, Math.min(sent.limit, count - sent.offset));
  const env = readEnvelope(e);
  const what = `${describeFilter(f)} offset ${sent.offset} limit ${sent.limit}`;
  if (!env)
    return {
      rule: 'FLT-BEFORE-PAGE',
      expected: `HTTP 200 with ${want} records (${what})`,
      received: excerpt(e),
      exchange: e,
    };
  if (env.data.length === want) return undefined;
  const v: Violation = {
    rule: 'FLT-BEFORE-PAGE',
    expected: `${what}: ${want} records (${count} matches in all: the filter applies before pagination)`,
    received: `${env.data.length} records (total ${env.total})`,
    exchange: e,
  };
  return derive(v, pastEndBasis(e));
}
