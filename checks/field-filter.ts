/**
 * Pure checks on another collection's `filter[<field>]` (§4.2 "Filters and sorting are applied before pagination";
 * reading "More collections"): a filtered listing holds only records whose field has the value (a scalar read as
 * text: `filter[count]=3` matches 3), its `total` counts them in the unfiltered set, and pages stay full while
 * matches remain. A value no record has gives a 4xx or an empty 200.
 */
import type { Exchange } from '../core/model/exchange.ts';
import { type FieldFilter, readEnvelope } from '../core/model/listing.ts';
import { asText, fieldOf } from '../core/model/result-set.ts';
import type { RuleId } from '../core/model/rules.ts';
import { derive, excerpt, type Violation } from '../core/model/verdict.ts';
import { pastEndBasis } from './envelope.ts';
import { describeFieldRecord } from './field-order.ts';
import { pageOf, type Walked } from './order.ts';

/** `filter[reason]=duplicate`, for reports. */
export const describeFilter = (f: FieldFilter) => `filter[${f.field}]=${JSON.stringify(f.value)}`;

/** Whether the record's field has the filter's value. */
export const matches = (record: unknown, f: FieldFilter) => asText(fieldOf(record, f.field)) === f.value;

/** How many records match: exact from a whole set, a range from one read in part (its total bounds it). */
export function expectedFieldMatches(
  all: { records: readonly unknown[]; total: number; complete: boolean },
  f: FieldFilter,
): { min: number; max: number } {
  const seen = all.records.filter((r) => matches(r, f)).length;
  return all.complete ? { min: seen, max: seen } : { min: seen, max: all.total - (all.records.length - seen) };
}

/** FLT-STATUS / SRT-FILTER on another collection: every record read has the filter's value. */
export function fieldFilterViolation(walk: Walked, f: FieldFilter, rule: RuleId): Violation | undefined {
  const wrong = walk.records.findIndex((r) => !matches(r, f));
  if (wrong < 0) return undefined;
  const count = walk.records.filter((r) => !matches(r, f)).length;
  return {
    rule,
    expected: `${describeFilter(f)}: every record has ${f.field} ${JSON.stringify(f.value)}`,
    received: `${count} of ${walk.records.length} records have another, e.g. record #${wrong} (${describeFieldRecord(walk.records[wrong], f.field)})`,
    exchange: pageOf(walk, wrong).page,
  };
}

/** FLT-STATUS on any collection: a filtered page's `total` is the number of matching records of the unfiltered set. */
export function fieldTotalViolation(
  e: Exchange,
  f: FieldFilter,
  want: { min: number; max: number },
  unfilteredTotal: number,
): Violation | undefined {
  const env = readEnvelope(e);
  if (!env) {
    return {
      rule: 'FLT-STATUS',
      expected: `HTTP 200 listing for ${describeFilter(f)}`,
      received: excerpt(e),
      exchange: e,
    };
  }
  if (env.total >= want.min && env.total <= want.max) return undefined;
  const n = want.min === want.max ? `${want.min}` : `between ${want.min} and ${want.max}`;
  const hint = env.total === unfilteredTotal && unfilteredTotal !== want.max ? ' (the unfiltered total)' : '';
  return {
    rule: 'FLT-STATUS',
    expected: `${describeFilter(f)}: total ${n}, the records with ${f.field} ${JSON.stringify(f.value)} of the unfiltered set (total ${unfilteredTotal})`,
    received: `total ${env.total}${hint}`,
    exchange: e,
  };
}

/** FLT-STATUS on another collection: a value no record has gives a 4xx, or a 200 with total 0 and data []. */
export function unknownValueViolation(e: Exchange, f: FieldFilter): Violation | undefined {
  if (e.status >= 400 && e.status < 500) return undefined;
  const env = readEnvelope(e);
  if (env && env.total === 0 && env.data.length === 0) return undefined;
  const got = env
    ? `HTTP 200 with total ${env.total} and ${env.data.length} records${env.data.length ? `, e.g. ${describeFieldRecord(env.data[0], f.field)}` : ''}`
    : excerpt(e);
  return {
    rule: 'FLT-STATUS',
    expected: `${describeFilter(f)} (a value no record has; a filter never widens to a pattern): a 4xx, or HTTP 200 with total 0 and data []`,
    received: got,
    exchange: e,
  };
}

/** FLT-BEFORE-PAGE on another collection: a filtered page holds max(0, min(limit, matches - offset)) records. */
export function fullFieldPageViolation(
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
