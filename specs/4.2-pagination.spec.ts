/**
 * §4.2 List payments of a merchant: pagination (rules PAG-ECHO, PAG-DEFAULT, PAG-SIZE, PAG-TOTAL, PAG-PARTITION,
 * PAG-EMPTY) on the sandbox merchant's listing: unfiltered, filtered (COMPLETED) and sorted. Totals are learned
 * from the target first (a reference read per filter: offset 0, limit 100); whole sets come from enumerate()
 * (limit 100, memoised per worker). A suspect total counts only once a second reference read shows that the data
 * did not change meanwhile; otherwise the check is inconclusive.
 */
import fc from 'fast-check';
import {
  defaultLimitViolation,
  echoViolation,
  emptyViolation,
  limitInForce,
  sizeViolation,
} from '../checks/envelope.ts';
import {
  countViolation,
  enumerationViolation,
  sameSetViolation,
  sliceViolation,
  totalAgreementViolation,
  type WalkPage,
  walkViolation,
} from '../checks/pages.ts';
import {
  ABSURD_OFFSET,
  absurdOffsetArb,
  describeWindow,
  limitArb,
  MAX_LIMIT,
  offsetArb,
  SPEC_STATUS,
  type Window,
  windowArb,
} from '../fixtures/arbitraries.ts';
import type { Target } from '../fixtures/config.ts';
import {
  DataChanged,
  enumerate,
  fetchPage,
  identity,
  LISTING_QUERIES,
  type Listing,
  liveListing,
  type Query,
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

const REFERENCE = { offset: 0, limit: MAX_LIMIT };
/** A walk at limit L reads at most this many pages. */
const MAX_WALK_PAGES = 30;

const isClientError = (status: number) => status >= 400 && status < 500;
const queryLabel = (q: Query) =>
  q.status || q.sort ? describeWindow({ status: q.status, sort: q.sort }) : 'the unfiltered listing';

interface Reference {
  listing: Listing;
  total: number;
  exchange: Exchange;
}

/** One reference read per filter (sorting does not change the matching set, hence not the total). */
async function references(api: ApiClient, target: Target, rule: RuleId): Promise<Map<string, Reference>> {
  const refs = new Map<string, Reference>();
  for (const status of new Set(LISTING_QUERIES.map((q) => q.status))) {
    const listing = sandboxListing(target, { status });
    const exchange = await fetchPage(api, listing, REFERENCE);
    const env = readEnvelope(exchange);
    const label = describeWindow({ ...REFERENCE, status });
    if (!env)
      throw new Unusable({ rule, expected: `HTTP 200 listing for ${label}`, received: excerpt(exchange), exchange });
    refs.set(status ?? '', { listing, total: env.total, exchange });
  }
  return refs;
}
const refOf = (refs: Map<string, Reference>, w: Window) => refs.get(w.status ?? '') as Reference;

/** A violation about a total stands only when a second reference read still gives the reference total. */
async function unlessDataChanged(api: ApiClient, ref: Reference, v: Violation | undefined) {
  if (!v) return v;
  const again = readEnvelope(await fetchPage(api, ref.listing, REFERENCE));
  if (again && again.total !== ref.total) throw new DataChanged(`total went from ${ref.total} to ${again.total}`);
  return v;
}

/**
 * A property over windows: each window is read and its 200 judged. A 4xx is legal only over the cap, for an
 * absurd offset or for a status outside `known` (reading.md); any other answer than 200 fails `rule`.
 */
function windowProperty(
  ctx: { target: Target; api: ApiClient },
  rule: RuleId,
  arb: fc.Arbitrary<Window>,
  examples: Window[],
  judge: (e: Exchange, w: Window) => Violation | undefined | Promise<Violation | undefined>,
  known: ReadonlySet<string> = new Set([SPEC_STATUS]),
) {
  return forAll(
    ctx.target,
    arb,
    async (w) => {
      const e = await fetchPage(ctx.api, sandboxListing(ctx.target, w), w);
      if (e.status === 200) return judge(e, w);
      const mayRefuse =
        (w.limit ?? 0) > MAX_LIMIT ||
        (w.offset ?? 0) >= ABSURD_OFFSET ||
        (w.status !== undefined && !known.has(w.status));
      if (isClientError(e.status) && mayRefuse) return undefined;
      return { rule, expected: `HTTP 200 listing for ${describeWindow(w)}`, received: excerpt(e), exchange: e };
    },
    { describe: describeWindow, examples },
  );
}

/** A window on one of LISTING_QUERIES, its offset drawn for that query's total. */
function queryWindowArb(
  total: (q: Query) => number,
  offset: (t: number) => fc.Arbitrary<number | undefined>,
  limit: fc.Arbitrary<number | undefined>,
) {
  return fc.oneof(
    ...LISTING_QUERIES.map((q) => fc.record({ offset: offset(total(q)), limit }).map((w): Window => ({ ...q, ...w }))),
  );
}

/** The windows of PAG-ECHO and PAG-SIZE: any mix of parameters, from the unfiltered total and the statuses seen. */
async function anyWindows(api: ApiClient, target: Target, rule: RuleId) {
  const all = await enumerate(api, target, sandboxListing(target), rule);
  const statusOf = (r: unknown) => (r as { status?: unknown } | null)?.status;
  const statuses = [...new Set(all.records.map(statusOf).filter((s): s is string => typeof s === 'string'))];
  const t = all.total;
  const completed = all.records.filter((r) => statusOf(r) === SPEC_STATUS).length;
  const examples: Window[] = [
    {},
    { offset: 0 },
    { limit: 1 },
    { offset: 5, limit: 7 },
    { offset: Math.max(0, t - 1), limit: 10 },
    { offset: Math.max(0, t - 3), limit: 100 },
    { offset: t + 1, limit: 10 },
    { offset: t + 1000 },
    { limit: MAX_LIMIT + 1 },
    { offset: 3, limit: 10, status: SPEC_STATUS, sort: '-amount' },
    { offset: completed + 1, limit: 5, status: SPEC_STATUS },
  ];
  return { arb: windowArb(t, statuses), examples, known: new Set([...statuses, SPEC_STATUS]) };
}

async function enumerateAll(api: ApiClient, target: Target, rule: RuleId): Promise<ResultSet[]> {
  const sets: ResultSet[] = [];
  for (const q of LISTING_QUERIES) sets.push(await enumerate(api, target, sandboxListing(target, q), rule));
  return sets;
}

test.describe('§4.2 List payments: echoed offset and limit, default limit, page size', () => {
  // "The response echoes offset, limit and total next to data." Reading: offset as sent (0 when omitted);
  // limit as the limit in force (requested if 1..100, the default when omitted, 100 when clamped).
  check('PAG-ECHO any window: offset echoed as sent (0 if omitted), limit as the limit in force', async (ctx) => {
    const { arb, examples, known } = await anyWindows(ctx.api, ctx.target, 'PAG-ECHO');
    await windowProperty(ctx, 'PAG-ECHO', arb, examples, (e, w) => echoViolation(e, w, ctx.target.defaultLimit), known);
  });

  // "limit | Maximum number of records returned. Default is typically 10." (§8: "typically 10 when omitted")
  check('PAG-DEFAULT limit omitted: the default limit is in force at any offset, filtered and sorted', async (ctx) => {
    const refs = await references(ctx.api, ctx.target, 'PAG-DEFAULT');
    const t = refOf(refs, {}).total;
    const arb = queryWindowArb((q) => refOf(refs, q).total, offsetArb, fc.constant(undefined));
    const examples: Window[] = [
      {},
      { offset: 0 },
      { offset: Math.max(0, t - 3) },
      { status: SPEC_STATUS },
      { sort: '-amount', offset: 3 },
      { offset: t + 1 },
    ];
    await windowProperty(ctx, 'PAG-DEFAULT', arb, examples, (e) => defaultLimitViolation(e, ctx.target.defaultLimit));
  });

  // "Records are returned starting at index offset, up to limit records."
  check('PAG-SIZE any window: data.length = max(0, min(limit, total - offset))', async (ctx) => {
    const { arb, examples, known } = await anyWindows(ctx.api, ctx.target, 'PAG-SIZE');
    await windowProperty(ctx, 'PAG-SIZE', arb, examples, (e) => sizeViolation(e), known);
  });
});

test.describe('§4.2 List payments: total', () => {
  // "total is the count of all records matching the query (after filtering), not the size of the page."
  check('PAG-TOTAL total is the same on every page, at every limit and sort, as on the reference read', async (ctx) => {
    const refs = await references(ctx.api, ctx.target, 'PAG-TOTAL');
    const t = (q: Query) => refOf(refs, q).total;
    const half = (q: Query) => Math.floor(t(q) / 2);
    const done = { status: SPEC_STATUS };
    const examples: Window[] = [
      { offset: 0, limit: 10 },
      { offset: half({}), limit: 7 },
      { offset: Math.max(0, t({}) - 1), limit: 10 },
      { sort: 'amount', limit: 50 },
      { sort: '-amount', offset: half({}), limit: 1 },
      { ...done, offset: half(done) },
      { ...done, sort: '-amount', offset: 1, limit: 100 },
    ];
    await windowProperty(ctx, 'PAG-TOTAL', queryWindowArb(t, offsetArb, limitArb()), examples, async (e, w) => {
      const ref = refOf(refs, w);
      const v = totalAgreementViolation(
        { label: describeWindow({ ...REFERENCE, status: w.status }), exchange: ref.exchange },
        { label: describeWindow(w), exchange: e },
      );
      return unlessDataChanged(ctx.api, ref, v);
    });
  });

  check(
    'PAG-TOTAL total equals the number of records enumerated (unfiltered, filtered, sorted)',
    async ({ target, api }) => {
      const sets = await enumerateAll(api, target, 'PAG-TOTAL');
      for (const [i, set] of sets.entries())
        assertNoViolation(countViolation(set, identity(set.records), queryLabel(LISTING_QUERIES[i] ?? {})));
    },
  );
});

test.describe('§4.2 List payments: pages partition the result set', () => {
  // "Page 1 with limit L has offset=0. Page n has offset=(n-1)*L." Reading: the order without sort is stable
  // from request to request, and ties under sort come in the same order on every request.
  check(
    'PAG-PARTITION the pages at limit 100 hold every record once, and the same records at every sort',
    async ({ target, api }) => {
      const sets = await enumerateAll(api, target, 'PAG-PARTITION');
      const unsorted = new Map<string | undefined, ResultSet>();
      for (const [i, set] of sets.entries()) {
        const q = LISTING_QUERIES[i] ?? {};
        assertNoViolation(enumerationViolation(set, identity(set.records), queryLabel(q)));
        const base = unsorted.get(q.status);
        if (!base) unsorted.set(q.status, set);
        else
          assertNoViolation(
            sameSetViolation(base, set, identity(base.records), [queryLabel({ status: q.status }), queryLabel(q)]),
          );
      }
    },
  );

  check(
    'PAG-PARTITION pages at offsets 0, L, 2L, … at any limit L concatenate to the whole result set',
    async ({ target, api }) => {
      const sets = await enumerateAll(api, target, 'PAG-PARTITION');
      const covered = (s: ResultSet) => (s.capped ? s.records.length : s.total);
      // L runs from 100 down to the smallest limit that covers the set in MAX_WALK_PAGES pages; `below` shrinks
      // toward 0, i.e. toward limit 100, the cheapest walk.
      const limitOf = ({ i, below }: { i: number; below: number }) =>
        Math.max(MAX_LIMIT - below, Math.min(MAX_LIMIT, Math.ceil(covered(sets[i] as ResultSet) / MAX_WALK_PAGES)));
      const arb = fc.record({
        i: fc.integer({ min: 0, max: LISTING_QUERIES.length - 1 }),
        below: fc.integer({ min: 0, max: MAX_LIMIT - 1 }),
      });
      const walk = async (v: { i: number; below: number }) => {
        const set = sets[v.i] as ResultSet;
        const limit = limitOf(v);
        const pages: WalkPage[] = [];
        for (
          let offset = 0;
          pages.length < MAX_WALK_PAGES && (offset === 0 || offset < covered(set));
          offset += limit
        ) {
          const exchange = await fetchPage(api, sandboxListing(target, LISTING_QUERIES[v.i]), { offset, limit });
          const env = readEnvelope(exchange);
          if (env && env.total !== set.total) throw new DataChanged(`total went from ${set.total} to ${env.total}`);
          pages.push({ offset, exchange });
        }
        return walkViolation(pages, limit, set, identity(set.records));
      };
      await forAll(target, arb, walk, {
        describe: (v) => `${queryLabel(LISTING_QUERIES[v.i] ?? {})}, pages of limit=${limitOf(v)}`,
        examples: [
          { i: 0, below: MAX_LIMIT - 1 },
          { i: 1, below: MAX_LIMIT - 7 },
          { i: 3, below: 1 },
          { i: 2, below: 67 },
        ],
        numRuns: Math.min(target.fcNumRuns, 6),
      });
    },
  );

  check('PAG-PARTITION any (offset, limit) window is the matching slice of the result set', async (ctx) => {
    const sets = await enumerateAll(ctx.api, ctx.target, 'PAG-PARTITION');
    const setOf = (q: Query) =>
      sets[LISTING_QUERIES.findIndex((x) => x.status === q.status && x.sort === q.sort)] as ResultSet;
    const t = (q: Query) => setOf(q).total;
    const examples: Window[] = [
      { offset: 1, limit: 10 },
      { offset: 99, limit: 3 },
      { sort: '-amount', offset: 100, limit: 1 },
      { status: SPEC_STATUS, offset: Math.max(0, t({ status: SPEC_STATUS }) - 2), limit: 5 },
      { sort: 'amount', offset: 13 },
    ];
    await windowProperty(ctx, 'PAG-PARTITION', queryWindowArb(t, offsetArb, limitArb()), examples, (e, w) => {
      const set = setOf(w);
      const env = readEnvelope(e);
      if (env && env.total !== set.total) throw new DataChanged(`total went from ${set.total} to ${env.total}`);
      return sliceViolation(
        e,
        { offset: w.offset ?? 0, limit: limitInForce(w, ctx.target.defaultLimit) },
        set,
        identity(set.records),
      );
    });
  });
});

test.describe('§4.2 List payments: empty pages', () => {
  // "When total is 0, no records match, and the data array is empty." Reading: offset >= total gives 200 with
  // data [] and the same total (or a 4xx for absurd offsets).
  check(
    'PAG-EMPTY offset at or past the end: data [] and total unchanged, at any limit, filtered and sorted',
    async (ctx) => {
      const refs = await references(ctx.api, ctx.target, 'PAG-EMPTY');
      const t = (q: Query) => refOf(refs, q).total;
      const pastEnd = (total: number) =>
        fc.oneof(fc.constantFrom(total, total + 1), fc.integer({ min: total, max: total + 1000 }), absurdOffsetArb());
      const done = { status: SPEC_STATUS };
      const examples: Window[] = [
        { offset: t({}), limit: 10 },
        { offset: t({}) + 1 },
        { ...done, offset: t(done), limit: 100 },
        { sort: '-amount', offset: t({}) + 1, limit: 1 },
        { ...done, sort: '-amount', offset: t(done) + 50, limit: 10 },
        { offset: ABSURD_OFFSET, limit: 10 },
      ];
      await windowProperty(ctx, 'PAG-EMPTY', queryWindowArb(t, pastEnd, limitArb()), examples, (e, w) => {
        const ref = refOf(refs, w);
        return unlessDataChanged(
          ctx.api,
          ref,
          emptyViolation(e, w.offset ?? 0, ref.total, (w.offset ?? 0) >= ABSURD_OFFSET),
        );
      });
    },
  );

  check(
    'PAG-EMPTY a query that matches nothing (unknown status) gives data [] when it answers 200 with total 0',
    async ({ target, api }) => {
      for (const offset of [undefined, 0, 5]) {
        const e = await fetchPage(api, sandboxListing(target, { status: 'NO_SUCH_STATUS' }), { offset, limit: 10 });
        if (e.status >= 500)
          assertNoViolation({
            rule: 'PAG-EMPTY',
            expected: 'a 4xx, or HTTP 200 with total 0 and data []',
            received: excerpt(e),
            exchange: e,
          });
        // A 4xx is legal; a total other than 0 is FLT-STATUS's to judge.
        if (readEnvelope(e)?.total === 0) assertNoViolation(emptyViolation(e, offset ?? 0, 0, false));
      }
    },
  );
});

test.describe('§4.2 The live listing (cutover checklist)', () => {
  // Before the go-live cutover: the live key's listing echoes offset and limit (one request).
  check(
    "PAG-ECHO the live key's listing echoes offset and limit as sent",
    async ({ target, api }) => {
      const sent = { offset: 1, limit: 3 };
      const e = await fetchPage(api, liveListing(target), sent);
      if (e.status !== 200) {
        assertNoViolation({ rule: 'PAG-ECHO', expected: 'HTTP 200 listing', received: excerpt(e), exchange: e });
      }
      assertNoViolation(echoViolation(e, sent, target.defaultLimit));
    },
    { needs: ['live', 'liveMerchant'], tag: '@cutover' },
  );
});
