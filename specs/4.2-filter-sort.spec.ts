/**
 * §4.2 List payments of a merchant: `filter[status]` and `sort` (rules FLT-STATUS, FLT-BEFORE-PAGE, SRT-AMOUNT,
 * SRT-FILTER). The statuses and the set are learned from the target first (the unfiltered sandbox listing,
 * enumerated once per worker); walks at smaller limits take at most MAX_WALK_PAGES pages each.
 */
import fc from 'fast-check';
import {
  caseChanged,
  expectedMatches,
  filteredTotalViolation,
  fullPageViolation,
  statusCounts,
  statusViolation,
  unknownStatusViolation,
  withStatus,
} from '../checks/filter.ts';
import {
  AMOUNT_SORTS,
  type AmountSort,
  orderedWalkViolation,
  permutationViolation,
  sortViolation,
  tieSplittingLimits,
  type Walked,
  walkLimits,
} from '../checks/order.ts';
import { inCapLimitArb, MAX_LIMIT, SPEC_STATUS, unknownStatusArb } from '../fixtures/arbitraries.ts';
import type { Target } from '../fixtures/config.ts';
import {
  DataChanged,
  describeListing,
  enumerate,
  fetchPage,
  type Listing,
  type ResultSet,
  readEnvelope,
  sandboxListing,
  Unusable,
} from '../fixtures/dataset.ts';
import type { ApiClient, Exchange } from '../fixtures/http.ts';
import { forAll } from '../fixtures/property.ts';
import type { RuleId } from '../fixtures/rules.ts';
import { check, test } from '../fixtures/test.ts';
import { assertNoViolation, excerpt, type Violation } from '../fixtures/violation.ts';

/** At most this many statuses are checked one by one (the most frequent, and COMPLETED). */
const MAX_STATUSES = 12;
/** A walk at a small limit reads at most this many pages (a prefix of a larger set). */
const MAX_WALK_PAGES = 6;

interface Learned {
  all: ResultSet;
  /** Every string status seen, most frequent first. */
  seen: string[];
  /** The statuses checked one by one: COMPLETED and the most frequent seen. */
  statuses: string[];
}

async function learn(api: ApiClient, target: Target, rule: RuleId): Promise<Learned> {
  const all = await enumerate(api, target, sandboxListing(target), rule);
  const seen = statusCounts(all.records).map(([status]) => status);
  return { all, seen, statuses: [...new Set([SPEC_STATUS, ...seen.slice(0, MAX_STATUSES - 1)])] };
}

/** The number of `status` records: counted in the unfiltered set, or the filtered total when that set was capped. */
async function matchCount(api: ApiClient, target: Target, { all }: Learned, status: string, rule: RuleId) {
  const range = expectedMatches(all, status);
  if (range.min === range.max) return range.min;
  return (await enumerate(api, target, sandboxListing(target, { status }), rule)).total;
}

/** Before a count-based violation is reported: if the unfiltered total moved, the data changed under the check. */
function unlessDataChanged(api: ApiClient, target: Target, all: ResultSet) {
  return async (v: Violation | undefined): Promise<Violation | undefined> => {
    if (!v) return v;
    const env = readEnvelope(await fetchPage(api, sandboxListing(target), { offset: 0, limit: 1 }));
    if (env && env.total !== all.total)
      throw new DataChanged(`unfiltered total went from ${all.total} to ${env.total}`);
    return v;
  };
}

/** The sorted result sets (at limit 100) of `status` (undefined: unfiltered) in both directions. */
async function sortedSets(api: ApiClient, target: Target, rule: RuleId, status?: string) {
  const sets = new Map<AmountSort, ResultSet>();
  for (const sort of AMOUNT_SORTS)
    sets.set(sort, await enumerate(api, target, sandboxListing(target, { status, sort }), rule));
  return (sort: AmountSort) => sets.get(sort) as ResultSet;
}

interface Walk extends Walked {
  total: number;
  /** True when the walk reached `total`; false when MAX_WALK_PAGES stopped it first. */
  complete: boolean;
}

/** Pages at offsets 0, L, 2L, … until `total` or MAX_WALK_PAGES. */
async function walk(api: ApiClient, listing: Listing, limit: number, rule: RuleId): Promise<Walk> {
  const pages: Exchange[] = [];
  const records: unknown[] = [];
  let total: number | undefined;
  for (let offset = 0; pages.length < MAX_WALK_PAGES; offset += limit) {
    const e = await fetchPage(api, listing, { offset, limit });
    const env = readEnvelope(e);
    if (!env) {
      const expected = `a 200 listing for ${describeListing(listing)} offset ${offset} limit ${limit}`;
      throw new Unusable({ rule, expected, received: excerpt(e), exchange: e });
    }
    if (total !== undefined && env.total !== total) throw new DataChanged(`total went from ${total} to ${env.total}`);
    total = env.total;
    pages.push(e);
    records.push(...env.data);
    if (offset + limit >= total) return { pages, records, total, complete: true };
  }
  return { pages, records, total: total ?? 0, complete: false };
}

test.describe('§4.2 List payments: filter[status]', () => {
  // "filter[status] | Restricts results to payments with this status (for example COMPLETED)";
  // "total is the count of all records matching the query (after filtering)".
  check(
    'FLT-STATUS filter[status]=S lists only S records, total = the S records of the unfiltered set (each status seen, and COMPLETED)',
    async ({ target, api }) => {
      const { all, statuses } = await learn(api, target, 'FLT-STATUS');
      for (const status of statuses) {
        const set = await enumerate(api, target, sandboxListing(target, { status }), 'FLT-STATUS');
        const total = filteredTotalViolation(set.pages[0] as Exchange, status, expectedMatches(all, status), all.total);
        assertNoViolation(
          statusViolation(set, status, 'FLT-STATUS') ?? (await unlessDataChanged(api, target, all)(total)),
        );
      }
    },
  );

  // Reading: "Unknown filter[status] value: a 4xx, or a 200 with total 0 and data []". Values match exactly:
  // `completed` is not `COMPLETED`.
  check(
    'FLT-STATUS an unknown or case-changed status gives a 4xx or an empty 200 (total 0, data [])',
    async ({ target, api }) => {
      const known = new Set([...(await learn(api, target, 'FLT-STATUS')).seen, SPEC_STATUS]);
      await forAll(
        target,
        unknownStatusArb([...known]),
        async (value) =>
          unknownStatusViolation(await fetchPage(api, { ...sandboxListing(target), status: value }), value),
        {
          describe: (value) => `filter[status]=${JSON.stringify(value)}`,
          examples: [...caseChanged(known), 'NO_SUCH_STATUS'],
        },
      );
    },
  );

  // "Filters and sorting are applied before pagination": a page holds min(limit, matches - offset) records.
  check(
    'FLT-BEFORE-PAGE a filtered walk at a small limit has full pages while matches remain, and every match once',
    async ({ target, api }) => {
      const learned = await learn(api, target, 'FLT-BEFORE-PAGE');
      for (const status of learned.statuses) {
        const n = await matchCount(api, target, learned, status, 'FLT-BEFORE-PAGE');
        const limit = Math.min(MAX_LIMIT, Math.max(1, Math.ceil(n / 4)));
        const w = await walk(api, sandboxListing(target, { status }), limit, 'FLT-BEFORE-PAGE');
        for (const [i, page] of w.pages.entries()) {
          assertNoViolation(fullPageViolation(page, status, { offset: i * limit, limit }, n));
        }
        if (!w.complete || learned.all.capped) continue;
        const label = `filter[status]=${status} read at limit ${limit}: the ${n} ${status} records of the unfiltered set`;
        const v = permutationViolation(w, withStatus(learned.all.records, status), 'FLT-BEFORE-PAGE', label);
        assertNoViolation(await unlessDataChanged(api, target, learned.all)(v));
      }
    },
  );

  check('FLT-BEFORE-PAGE any filtered window holds min(limit, matches - offset) records', async ({ target, api }) => {
    const learned = await learn(api, target, 'FLT-BEFORE-PAGE');
    const counts = new Map<string, number>();
    for (const s of learned.statuses) counts.set(s, await matchCount(api, target, learned, s, 'FLT-BEFORE-PAGE'));
    const n = (s: string) => counts.get(s) ?? 0;
    const edges = (s: string) => fc.constantFrom(0, Math.max(0, n(s) - 1), n(s));
    const arb = fc.constantFrom(...learned.statuses).chain((status) =>
      fc.record({
        status: fc.constant(status),
        offset: fc.oneof(fc.integer({ min: 0, max: n(status) }), edges(status)),
        limit: inCapLimitArb(),
      }),
    );
    // The first page at the largest limit, and the last match of the most frequent status.
    const examples = learned.statuses.slice(0, 3).map((status) => ({ status, offset: 0, limit: MAX_LIMIT }));
    const top = learned.statuses[0] ?? SPEC_STATUS;
    examples.push({ status: top, offset: Math.max(0, n(top) - 1), limit: 10 });
    const guard = unlessDataChanged(api, target, learned.all);
    await forAll(
      target,
      arb,
      async ({ status, offset, limit }) => {
        const e = await fetchPage(api, sandboxListing(target, { status }), { offset, limit });
        return guard(fullPageViolation(e, status, { offset, limit }, n(status)));
      },
      { describe: (w) => `filter[status]=${w.status} offset=${w.offset} limit=${w.limit}`, examples },
    );
  });
});

test.describe('§4.2 List payments: sort', () => {
  // "sort | Sort field. A leading - means descending order (for example -amount gives highest amount first).
  // Without the prefix, ascending order is implied." Reading: amount compares numerically (number or numeric string).
  check(
    'SRT-AMOUNT sort=amount ascends and sort=-amount descends numerically over the whole listing, across pages',
    async ({ target, api }) => {
      const { all } = await learn(api, target, 'SRT-AMOUNT');
      const sorted = await sortedSets(api, target, 'SRT-AMOUNT');
      for (const sort of AMOUNT_SORTS) {
        const set = sorted(sort);
        const label = `sort=${sort} read at limit ${MAX_LIMIT}`;
        const whole = !all.capped && !set.capped;
        const same = whole
          ? permutationViolation(set, all.records, 'SRT-AMOUNT', `${label}: the unsorted set`)
          : undefined;
        assertNoViolation(
          sortViolation(set, sort, 'SRT-AMOUNT', label) ?? (await unlessDataChanged(api, target, all)(same)),
        );
      }
    },
  );

  // Reading: "Under sort=amount, ties may come in any order, but the same order on every request": pages at
  // any limit partition the set and concatenate to one sequence. Limits that split tie groups come first.
  check(
    'SRT-AMOUNT pages at any limit concatenate to the same sorted sequence (ties in one order on every request)',
    async ({ target, api }) => {
      const { all } = await learn(api, target, 'SRT-AMOUNT');
      const { lo, hi } = walkLimits(all.total, MAX_WALK_PAGES);
      const ref = await sortedSets(api, target, 'SRT-AMOUNT');
      const examples = AMOUNT_SORTS.flatMap((sort) =>
        tieSplittingLimits(ref(sort).records, lo, hi, MAX_WALK_PAGES)
          .slice(0, 1)
          .map((limit) => ({ sort, limit })),
      );
      const guard = unlessDataChanged(api, target, all);
      await forAll(
        target,
        fc.record({ sort: fc.constantFrom(...AMOUNT_SORTS), limit: fc.integer({ min: lo, max: hi }) }),
        async ({ sort, limit }) => {
          const w = await walk(api, { ...sandboxListing(target), sort }, limit, 'SRT-AMOUNT');
          const expected = all.capped ? undefined : all.records;
          return guard(
            orderedWalkViolation(w, sort, ref(sort), expected, 'SRT-AMOUNT', `sort=${sort} read at limit ${limit}`),
          );
        },
        { describe: ({ sort, limit }) => `sort=${sort}, pages of limit=${limit}`, examples },
      );
    },
  );

  // "Filters and sorting are applied before pagination": the filtered set, globally sorted.
  check(
    'SRT-FILTER filter[status]=S with sort=±amount lists exactly the S records, globally sorted (each status)',
    async ({ target, api }) => {
      const { all, statuses } = await learn(api, target, 'SRT-FILTER');
      for (const status of statuses) {
        const sorted = await sortedSets(api, target, 'SRT-FILTER', status);
        for (const sort of AMOUNT_SORTS) {
          const set = sorted(sort);
          const label = `filter[status]=${status} sort=${sort} read at limit ${MAX_LIMIT}`;
          const whole = !all.capped && !set.capped;
          const same = whole
            ? permutationViolation(set, withStatus(all.records, status), 'SRT-FILTER', label)
            : undefined;
          assertNoViolation(
            statusViolation(set, status, 'SRT-FILTER') ??
              sortViolation(set, sort, 'SRT-FILTER', label) ??
              (await unlessDataChanged(api, target, all)(same)),
          );
        }
      }
    },
  );

  check(
    'SRT-FILTER filtered and sorted pages at any limit concatenate to the same sorted sequence',
    async ({ target, api }) => {
      const { all, statuses } = await learn(api, target, 'SRT-FILTER');
      const refs = new Map<string, (sort: AmountSort) => ResultSet>();
      for (const status of statuses) refs.set(status, await sortedSets(api, target, 'SRT-FILTER', status));
      const ref = (status: string, sort: AmountSort) => (refs.get(status) as (sort: AmountSort) => ResultSet)(sort);
      const limits = (status: string) => walkLimits(ref(status, 'amount').total, MAX_WALK_PAGES);
      const arb = fc.constantFrom(...statuses).chain((status) =>
        fc.record({
          status: fc.constant(status),
          sort: fc.constantFrom(...AMOUNT_SORTS),
          limit: fc.integer({ min: limits(status).lo, max: limits(status).hi }),
        }),
      );
      const examples = statuses.flatMap((status) => {
        const { lo, hi } = limits(status);
        const [limit] = tieSplittingLimits(ref(status, 'amount').records, lo, hi, MAX_WALK_PAGES);
        return limit === undefined ? [] : [{ status, sort: 'amount' as AmountSort, limit }];
      });
      const guard = unlessDataChanged(api, target, all);
      await forAll(
        target,
        arb,
        async ({ status, sort, limit }) => {
          const w = await walk(api, sandboxListing(target, { status, sort }), limit, 'SRT-FILTER');
          const label = `filter[status]=${status} sort=${sort} read at limit ${limit}`;
          const expected = all.capped ? undefined : withStatus(all.records, status);
          return guard(
            statusViolation(w, status, 'SRT-FILTER') ??
              orderedWalkViolation(w, sort, ref(status, sort), expected, 'SRT-FILTER', label),
          );
        },
        { describe: (v) => `filter[status]=${v.status} sort=${v.sort}, pages of limit=${v.limit}`, examples },
      );
    },
  );
});
