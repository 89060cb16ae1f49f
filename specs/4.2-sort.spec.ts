/**
 * §4.2 List payments of a merchant: `sort` (rules SRT-AMOUNT, SRT-FILTER), on every collection the run checks, for
 * each sort it declares (payments: `amount`, compared numerically), alone and with each filter, on every listing the
 * configuration can read: `sort=field` ascends and `sort=-field` descends by the field's type (checks/compare.ts)
 * across pages, with ties in one order on every request; a string without a named collation assumes none (each
 * direction the other's reverse apart from ties). Whole sets are read sorted once per worker; walks at smaller limits
 * take at most MAX_WALK_PAGES pages each.
 */
import fc from 'fast-check';
import { comparatorOf, orderWords } from '../checks/compare.ts';
import { filterViolation, matching } from '../checks/filter.ts';
import { describeRecord, orderViolation, permutationViolation, sortOf } from '../checks/order.ts';
import { orderedWalkViolation, reverseViolation, tieSplittingLimits, walkLimits } from '../checks/sequence.ts';
import { type Collection, type CollectionSort, directions, requiredFields } from '../core/model/collection.ts';
import { describeListing, type FieldFilter, maxLimitOf, withSelection } from '../core/model/listing.ts';
import { basedOn, basedOnPages, fieldValueCounts, type ResultSet, readBefore } from '../core/model/result-set.ts';
import { assertNoViolation, type Violation } from '../core/model/verdict.ts';
import { type CheckContext, notExercised } from '../core/run/check.ts';
import {
  coversOnce,
  filterCases,
  type Learned,
  type LearnedListing,
  learnReadable,
  runsOn,
  walkPagesOn,
} from '../core/run/learn.ts';
import { forAll } from '../core/run/property.ts';
import { enumerate, walk } from '../core/run/walk.ts';
import { type Check, eachCollection } from '../fixtures/collections.ts';

/** A walk at a small limit reads at most this many pages (a prefix of a larger set). */
const MAX_WALK_PAGES = 6;

/** Two values of the field among the records: there is an order to show. */
const twoValues = (records: readonly unknown[], field: string) => fieldValueCounts(records, field).length >= 2;

/** The records' field is one every record must have (payments' amount). */
const required = (c: Collection, s: CollectionSort) => requiredFields(c).includes(s.field);

/** The sorted result sets (at the maximum limit) of a listing, filtered or not, in both directions of each sort. */
async function sortedSets(ctx: CheckContext, l: LearnedListing, sorts: readonly string[], filter?: FieldFilter) {
  const sets = new Map<string, ResultSet>();
  for (const sort of sorts) sets.set(sort, await enumerate(ctx, withSelection(l.listing, { filter, sort })));
  return (sort: string) => sets.get(sort) as ResultSet;
}

/**
 * SRT-AMOUNT / SRT-FILTER over a listing read whole both ways: each in the field's order (its values, the filter's
 * matches), the same records as the unsorted set (when read whole), and for a string without a collation each the
 * other's reverse apart from ties.
 */
async function bothWays(
  ctx: CheckContext,
  c: Collection,
  l: LearnedListing,
  s: CollectionSort,
  filter?: FieldFilter,
  [k, cases] = [0, 1],
) {
  const ways = onceWays(ctx, s, k, cases);
  const sorted = await sortedSets(ctx, l, ways, filter);
  const describe = (r: unknown) => describeRecord(r, s.field);
  for (const sort of ways) {
    const set = sorted(sort);
    const label = `${describeListing(set.listing)} read at limit ${maxLimitOf(set.listing)}`;
    const want = matching(l.set.records, filter);
    const same =
      l.set.complete && set.complete
        ? permutationViolation(set, want, ctx.rule, filter ? label : `${label}: the unsorted set`, describe)
        : undefined;
    const order = sortOf(c.sorts, sort);
    const v: Violation | undefined =
      (filter ? filterViolation(set, filter, ctx.rule) : undefined) ??
      // The unsorted set was read first: its records existed when the sorted walk began (the order under growth).
      basedOnPages(
        orderViolation(set, { ...order, sort: s, required: required(c, s) }, ctx.rule, label, readBefore(l.set, set)),
        set,
      ) ??
      basedOn(same, l.set, set);
    assertNoViolation(v);
  }
  if (ways.length < 2) return;
  const [up, down] = directions(s).map(sorted) as [ResultSet, ResultSet];
  // A typed field's order holds both ways above; a string without a collation has none: the reverse is its order.
  if (!comparatorOf(s) && up.complete && down.complete) {
    const label = describeListing(withSelection(l.listing, { filter }));
    assertNoViolation(basedOn(reverseViolation(up, down, s.field, ctx.rule, label), up, down));
  }
}

/**
 * The directions read whole on the k-th case: both; covered once (`coversOnce`), a typed field's one direction per
 * case, in turn from the descending one (each direction is judged on its own), a string's both (its reverse is its
 * order).
 */
const onceWays = (ctx: CheckContext, s: CollectionSort, k: number, cases: number): string[] =>
  coversOnce(ctx.depth) && comparatorOf(s) && cases > 1 ? [directions(s)[(k + 1) % 2] as string] : directions(s);

/** How the title says a sort orders: `sort=amount ascends and sort=-amount descends numerically`. */
const ordering = (s: CollectionSort) =>
  comparatorOf(s)
    ? `sort=${s.field} ascends and sort=-${s.field} descends ${orderWords(s)}`
    : `sort=${s.field} and sort=-${s.field} (no collation assumed) are each other's reverse apart from ties`;

/** The walks of a sorted sequence: each case a listing (or filtered listing), a sort value and a limit. */
async function sequenceProperty(
  ctx: CheckContext,
  c: Collection,
  cases: ReadonlyArray<{ l: LearnedListing; filter?: FieldFilter }>,
  firstSorts: (k: number) => readonly string[],
): Promise<void> {
  const sorts = c.sorts.flatMap(directions);
  // The reference of a case under a sort: the whole set read sorted (memoised per worker), read where needed.
  const ref = (k: number, sort: string) => {
    const x = cases[k] as (typeof cases)[number];
    return enumerate(ctx, withSelection(x.l.listing, { filter: x.filter, sort }));
  };
  const max = c.maxLimit ?? 100;
  const pages = walkPagesOn(c, MAX_WALK_PAGES, ctx.depth);
  const once = coversOnce(ctx.depth);
  const totals: number[] = [];
  // Covered once, a case's total is its unsorted set's matches (read whole already), not a sorted read of its own.
  const counted = (k: number) =>
    ((x) => (x.l.set.complete ? matching(x.l.set.records, x.filter).length : undefined))(
      cases[k] as (typeof cases)[number],
    );
  for (const [k] of cases.entries())
    totals.push((once ? counted(k) : undefined) ?? (await ref(k, sorts[0] as string)).total);
  const limits = (k: number) => walkLimits(totals[k] ?? 0, pages, max - 1);
  // Covered once, the tie-splitting example on the first case only, in the direction its whole-set check read.
  const tried = (k: number) =>
    !once ? firstSorts(k) : k === 0 ? onceWays(ctx, c.sorts[0] as CollectionSort, 0, cases.length) : [];
  const arb = fc
    .record({ k: fc.nat({ max: cases.length - 1 }), sort: fc.constantFrom(...sorts) })
    .chain(({ k, sort }) => fc.integer(limits(k)).map((limit) => ({ k, sort, limit })));
  // A limit that splits a tie group, for the sorts each case tries first.
  const examples: Array<{ k: number; sort: string; limit: number }> = [];
  for (const [k] of cases.entries()) {
    for (const sort of tried(k)) {
      const { min, max: top } = limits(k);
      const records = (await ref(k, sort)).records;
      const [limit] = tieSplittingLimits(records, sortOf(c.sorts, sort).sort, min, top, pages);
      if (limit !== undefined) examples.push({ k, sort, limit });
    }
  }
  const listingOf = ({ k, sort }: { k: number; sort: string }) => {
    const x = cases[k] as (typeof cases)[number];
    return withSelection(x.l.listing, { filter: x.filter, sort });
  };
  await forAll(
    ctx,
    arb,
    async (v) => {
      const { l, filter } = cases[v.k] as (typeof cases)[number];
      const listing = listingOf(v);
      const reference = await ref(v.k, v.sort);
      const w = await walk(ctx, listing, { limit: v.limit, maxPages: pages });
      const label = `${describeListing(listing)} read at limit ${v.limit}`;
      const expected = l.set.complete ? matching(l.set.records, filter) : undefined;
      const order = sortOf(c.sorts, v.sort);
      const opts = { ...order, required: required(c, order.sort) };
      return (
        (filter ? filterViolation(w, filter, ctx.rule) : undefined) ??
        orderedWalkViolation(w, opts, reference, expected, ctx.rule, label, [l.set])
      );
    },
    {
      describe: (v) => `${describeListing(listingOf(v))}, pages of limit=${v.limit}`,
      examples,
      numRuns: runsOn(ctx, c, examples.length),
    },
  );
}

/** The readable listings learned; "not exercised" when none holds two values of a sort field (`filtered`: of a match). */
async function ordered(
  ctx: CheckContext,
  c: Collection,
  fields: readonly string[],
  filtered: boolean,
): Promise<Learned> {
  const learned = await learnReadable(ctx, c);
  const shows = filtered
    ? filterCases(learned).some((x) => fields.some((f) => twoValues(matching(x.l.set.records, x.filter), f)))
    : learned.listings.some((l) => fields.some((f) => twoValues(l.set.records, f)));
  const what = filtered ? 'no value of a filter holds two values of' : 'no listing holds two values of';
  if (!shows) notExercised(ctx, `${what} ${fields.join(' or ')}: there is no order to show`);
  return learned;
}

function sortChecks(c: Collection, check: Check, s: CollectionSort): void {
  // "sort | Sort field. A leading - means descending order (for example -amount gives highest amount first).
  // Without the prefix, ascending order is implied." Reading: amount compares numerically (number or numeric string).
  check('SRT-FIELD', `${ordering(s)} over the whole listing, across pages (every listing)`, async (ctx) => {
    const { listings } = await ordered(ctx, c, [s.field], false);
    for (const [k, l] of listings.entries()) await bothWays(ctx, c, l, s, undefined, [k, listings.length]);
  });
  // "Filters and sorting are applied before pagination": the filtered set, globally sorted.
  for (const f of c.filters) {
    const L = f.field.charAt(0).toUpperCase();
    check(
      'SRT-FILTER',
      `filter[${f.field}]=${L} with sort=±${s.field} lists exactly the ${L} records, globally sorted (each ${f.field}, every listing)`,
      async (ctx) => {
        const learned = await ordered(ctx, c, [s.field], true);
        const cases = filterCases(learned, [f], ctx.depth);
        for (const [k, { l, filter }] of cases.entries()) await bothWays(ctx, c, l, s, filter, [k, cases.length]);
      },
    );
  }
}

eachCollection('§4.2 Sorts:', (c, check) => {
  for (const s of c.sorts) sortChecks(c, check, s);
  if (c.sorts.length === 0) return;
  const fields = c.sorts.map((s) => s.field);
  // Reading: "Under sort=amount, ties may come in any order, but the same order on every request": pages at
  // any limit partition the set and concatenate to one sequence. Limits that split tie groups come first.
  check(
    'SRT-FIELD',
    'pages at any limit concatenate to the same sorted sequence (ties in one order on every request, every listing)',
    async (ctx) => {
      const learned = await ordered(ctx, c, fields, false);
      const sorts = c.sorts.flatMap(directions);
      // Both directions of every sort on the first listing, the descending ones on each other listing.
      await sequenceProperty(
        ctx,
        c,
        learned.listings.map((l) => ({ l })),
        (k) => (k === 0 ? sorts : sorts.filter((x) => x.startsWith('-'))),
      );
    },
  );
  if (c.filters.length === 0) return;
  check(
    'SRT-FILTER',
    'filtered and sorted pages at any limit concatenate to the same sorted sequence (every listing)',
    async (ctx) => {
      const learned = await ordered(ctx, c, fields, true);
      // The ascending order of the first sort on each case.
      await sequenceProperty(ctx, c, filterCases(learned, c.filters, ctx.depth), () => [c.sorts[0]?.field as string]);
    },
  );
});
