/**
 * What one page of an allowed listing of payments must be, by itself: each rule of a single answer — its envelope
 * (ENV-SCHEMA), echo (PAG-ECHO) and size (PAG-SIZE), its filter (FLT-STATUS, or SRT-FILTER with a sort) and its order
 * (SRT-AMOUNT, or SRT-FILTER). Judged on the pages of requests in flight together (core/run/concurrency.ts) and on
 * every page of the run whose query holds the documented parameters only (core/run/watch.ts keeps what this finds;
 * specs/every-answer.spec.ts judges it): a rule the code path of one listing forgets shows wherever a check read it.
 */
import { directions, PAYMENTS } from '../core/model/collection.ts';
import type { Exchange, QueryPairs } from '../core/model/exchange.ts';
import { describeRequest, MAX_LIMIT, type PageRequest, readEnvelope } from '../core/model/listing.ts';
import type { WatchedAnswer } from '../core/model/provenance.ts';
import { concurrentOf, EVERY_PAGE_RULES, type EveryPageRule, type RuleId } from '../core/model/rules.ts';
import type { Violation } from '../core/model/verdict.ts';
import { echoViolation, envelopeViolation, sizeViolation } from './envelope.ts';
import { filterViolation } from './filter.ts';
import { sortOf, sortViolation, type Walked } from './order.ts';

/**
 * Whether a page's query holds what a rule of a single page reads (Rule.concurrent's `page`): any page, a filter alone,
 * a sort alone, both.
 */
export function reads(page: 'any' | 'filter' | 'sort' | 'both', q: PageRequest): boolean {
  const [f, s] = [q.filter !== undefined, q.sort !== undefined];
  return page === 'any' || (page === 'filter' ? f && !s : page === 'sort' ? s && !f : f && s);
}

/** The rules of every page of the run (Rule.everyPage) that judge a page of this query. */
export function everyPageRulesOf(q: PageRequest): EveryPageRule[] {
  return EVERY_PAGE_RULES.filter((id) => {
    const kind = concurrentOf(id);
    return kind !== undefined && 'page' in kind && reads(kind.page, q);
  });
}

/** One answer as a walk of one page (what the filter and sort oracles read). */
const onePage = (e: Exchange, q: PageRequest): Walked => ({
  records: readEnvelope(e)?.data ?? [],
  pages: [{ offset: q.offset ?? 0, exchange: e }],
});

/** The sort of a page, in its rule: a sorted page (SRT-AMOUNT), or a filtered and sorted one (SRT-FILTER). */
function pageSorted(e: Exchange, q: PageRequest, rule: RuleId): Violation | undefined {
  if (!q.sort) return undefined;
  const { sort, descending } = sortOf(PAYMENTS.sorts, q.sort);
  return sortViolation(onePage(e, q), sort, descending, rule, `the page ${describeRequest(q)}`);
}

/** What one page of an allowed payments listing breaks by itself, whatever else the run did. */
export function pageViolations(e: Exchange, q: PageRequest, defaultLimit: number): Violation[] {
  const ofFilter = q.sort ? 'SRT-FILTER' : 'FLT-STATUS';
  const ofSort = q.filter ? 'SRT-FILTER' : 'SRT-AMOUNT';
  return [
    envelopeViolation(e),
    echoViolation(e, q, defaultLimit),
    sizeViolation(e),
    q.filter ? filterViolation(onePage(e, q), q.filter, ofFilter) : undefined,
    pageSorted(e, q, ofSort),
  ].filter((v): v is Violation => v !== undefined);
}

const CANONICAL_INTEGER = /^(0|[1-9]\d{0,8})$/;

/**
 * The payments request a query makes when it holds the documented parameters only — offset, limit, filter[status],
 * sort — each at most once, offset and limit integers in canonical form, the limit from 1 to the cap, the sort one of
 * the spec's: undefined for any other query (what an odd or undocumented input gets is judged by its own rules).
 */
export function documentedRequest(pairs: QueryPairs): PageRequest | undefined {
  const seen = new Set<string>();
  const r: PageRequest = {};
  const sorts = PAYMENTS.sorts.flatMap(directions);
  const field = PAYMENTS.filters[0]?.field ?? 'status';
  for (const [name, value] of pairs) {
    if (seen.has(name)) return undefined;
    seen.add(name);
    if (name === 'offset' && CANONICAL_INTEGER.test(value)) r.offset = Number(value);
    else if (name === 'limit' && CANONICAL_INTEGER.test(value) && Number(value) >= 1 && Number(value) <= MAX_LIMIT)
      r.limit = Number(value);
    else if (name === `filter[${field}]` && value !== '') r.filter = { field, value };
    else if (name === 'sort' && sorts.includes(value)) r.sort = value;
    else return undefined;
  }
  return r;
}

/** The pages of the run judged by `rule` (checks/page.ts through the watcher): how many, and what they broke. */
export function pageFlaws(
  answers: ReadonlyArray<Pick<WatchedAnswer, 'page' | 'request' | 'curl' | 'status'>>,
  rule: string,
): { judged: number; violations: Violation[] } {
  const judged = answers.filter((a) => a.page?.rules.includes(rule));
  const violations = judged.flatMap((a) =>
    (a.page?.flaws ?? [])
      .filter((f) => f.rule === rule)
      .map(
        (f): Violation => ({
          rule: rule as RuleId,
          expected: `${f.expected} (the page of ${a.request})`,
          received: f.received,
          reproduction: [a.curl],
        }),
      ),
  );
  return { judged: judged.length, violations };
}

/**
 * The cap over every answer of a collection's listing (reading "Pagination": never more than the maximum limit of
 * records in one answer, however the request was written): each 2xx answer that shows more — in its `data` list, or
 * as records written out in another representation (`shown`: checks/provenance.ts `recordsShown`) — whatever it asked
 * (a limit of 0 or -1 included, undocumented inputs, any key). `largest`: the largest `total` an answer gave, so that
 * a pass rests on a listing that holds more than the cap.
 */
export function overTheCap(
  answers: ReadonlyArray<Pick<WatchedAnswer, 'size' | 'request' | 'curl' | 'status'>>,
  cap: number,
  rule: RuleId,
  shown: ReadonlyMap<unknown, number> = new Map(),
): { judged: number; largest: number; violations: Violation[] } {
  let judged = 0;
  let largest = 0;
  const violations: Violation[] = [];
  for (const a of answers) {
    const inData = a.size?.records ?? 0;
    const written = shown.get(a) ?? 0;
    if (a.size === undefined && written === 0) continue;
    judged += 1;
    largest = Math.max(largest, a.size?.total ?? 0);
    const n = Math.max(inData, written);
    if (n <= cap) continue;
    violations.push({
      rule,
      expected: `at most ${cap} records in one answer, however the request was written (${a.request})`,
      received:
        inData >= written
          ? `HTTP ${a.status} with ${inData} records`
          : `HTTP ${a.status} with ${written} records of the listing written out in its body`,
      reproduction: [a.curl],
      standsUnderGrowth: true,
    });
  }
  return { judged, largest, violations };
}
