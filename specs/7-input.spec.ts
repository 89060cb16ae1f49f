/**
 * §7 Errors: odd query input (rule INP-ROBUST), on every collection the run checks. The spec does not show how invalid
 * pagination parameters are answered; the reading allows a 4xx (any status 400-499, any body), or a 200 whose envelope
 * satisfies every invariant for the values it echoes. A 5xx is never legal. Echoing odd values as sent is not
 * required. First the coverage phase (core/generate/coverage.ts): the boundary classes of every parameter,
 * deterministic; then a random sample of odd values in notation, length and character set, alone or next to a filter
 * or sort, on every listing.
 */
import fc from 'fast-check';
import { robustnessViolation } from '../checks/envelope.ts';
import { sliceViolation } from '../checks/pages.ts';
import { coverageCases, coverageSummary } from '../core/generate/coverage.ts';
import { type OddInput, type OddParams, oddInputs, oddValueArb, repeatTo } from '../core/generate/odd-input.ts';
import { type Collection, directions } from '../core/model/collection.ts';
import type { Exchange } from '../core/model/exchange.ts';
import {
  describeListing,
  identity,
  type Listing,
  listingPath,
  MAX_LIMIT,
  readEnvelope,
  requestQuery,
  type Selection,
  withSelection,
} from '../core/model/listing.ts';
import { assertNoViolation, type Violation } from '../core/model/verdict.ts';
import type { CheckContext } from '../core/run/check.ts';
import { coversOnce, firstFilters, readable, runsOn } from '../core/run/learn.ts';
import { forAll } from '../core/run/property.ts';
import { enumerate } from '../core/run/walk.ts';
import { eachCollection } from '../fixtures/collections.ts';

/** The odd values are sent alone, and next to a filter or a sort (a repeated parameter is odd input too). */
async function nextTo(ctx: CheckContext, c: Collection): Promise<{ selections: Selection[]; params: OddParams }> {
  const [filter] = await firstFilters(ctx, c);
  const sort = c.sorts[0] ? directions(c.sorts[0])[1] : undefined;
  return {
    selections: [{}, ...(filter ? [{ filter }] : []), ...(sort ? [{ sort }] : [])],
    params: { filter, sort: c.sorts[0]?.field },
  };
}

/** Sends the odd pairs after the listing's own parameters. */
function sendOdd(ctx: CheckContext, listing: Listing, odd: OddInput): Promise<Exchange> {
  return ctx.api.get(listingPath(listing), { query: [...requestQuery(listing), ...odd.pairs], auth: listing.auth });
}

/** An odd value of `length` characters repeating `unit` on `name`. */
const oddString = (name: string, unit: string, length: number): OddInput => {
  const value = repeatTo(unit, length);
  return {
    label: `${name}=${JSON.stringify(Array.from(value).slice(0, 6).join(''))}… (${length} characters)`,
    pairs: [[name, value]],
  };
};

const labelOf = (listing: Listing, odd: OddInput) => `${odd.label} on ${describeListing(listing)}`;

/**
 * A 200 to an odd offset or limit holds the window it echoes (reading: "a 200 whose envelope satisfies every invariant
 * for the values it echoes"): the records of the listing's result set at the offset and limit it names, whatever it
 * made of the value (a validator that reads `1e2` as 1 and a query layer that reads 100 serve another window than they
 * echo). Judged where the echo names a window (an offset of 0 or more, a limit from 1 to the cap).
 */
async function echoedWindowViolation(
  ctx: CheckContext,
  listing: Listing,
  e: Exchange,
  label: string,
  max: number,
): Promise<Violation | undefined> {
  const env = e.status === 200 ? readEnvelope(e) : undefined;
  if (!env || !Number.isSafeInteger(env.offset) || env.offset < 0) return undefined;
  if (!Number.isSafeInteger(env.limit) || env.limit < 1 || env.limit > max) return undefined;
  const set = await enumerate(ctx, listing);
  const v = sliceViolation(e, { offset: env.offset, limit: env.limit }, set, identity(set.records));
  return v && { ...v, rule: 'INP-ROBUST', expected: `a 200 to ${label} holds the window it echoes: ${v.expected}` };
}

eachCollection('§7 Errors: odd query input:', (c, check) => {
  // "Behavior for invalid pagination parameters: not shown." Reading: "legal answers are a 4xx, or a 200
  // whose envelope satisfies every invariant for the values it echoes. A 5xx is never legal."
  check(
    'INP-ROBUST',
    'coverage phase: every length, character class, number form and structure of every parameter, on every listing next to a filter or sort, gets a 4xx or a valid 200',
    async (ctx) => {
      const listings = readable(ctx.target, c);
      const { selections } = await nextTo(ctx, c);
      const cases = coverageCases(c, ctx.depth.strength === 1);
      ctx.notes.add(coverageSummary(cases));
      const failed: Array<{ label: string; violation: Violation }> = [];
      for (const [k, odd] of cases.entries()) {
        // Spread over the listings, alone or next to a filter or a sort that is not the parameter itself.
        const next = selections.filter(
          (s) => !(s.filter && odd.parameter === `filter[${s.filter.field}]`) && !(odd.parameter === 'sort' && s.sort),
        );
        const listing = withSelection(listings[k % listings.length] as Listing, next[k % next.length] ?? {});
        const label = labelOf(listing, odd);
        const e = await sendOdd(ctx, listing, odd);
        const numeric = odd.parameter === 'offset' || odd.parameter === 'limit';
        const violation =
          robustnessViolation(e, label, c) ??
          (numeric ? await echoedWindowViolation(ctx, listing, e, label, c.maxLimit ?? MAX_LIMIT) : undefined);
        if (violation) failed.push({ label, violation });
      }
      // Report the first in full and name the others: one run shows every odd input the target mishandles.
      const first = failed[0]?.violation;
      if (first && failed.length > 1) {
        const others = failed.slice(1).map((f) => f.label);
        first.received += ` (${others.length} more odd inputs fail too: ${others.slice(0, 6).join('; ')}${others.length > 6 ? '; …' : ''})`;
      }
      assertNoViolation(first);
    },
  );

  check(
    'INP-ROBUST',
    'any odd value of any length and character set, alone or next to a filter or sort, on any listing, gets a 4xx or a valid 200',
    async (ctx) => {
      const listings = readable(ctx.target, c);
      const { selections, params } = await nextTo(ctx, c);
      const arb = fc.record({
        i: fc.nat({ max: listings.length - 1 }),
        s: fc.nat({ max: selections.length - 1 }),
        odd: oddValueArb(params),
      });
      const catalogue = oddInputs(params);
      const pick = (label: string) => catalogue.find((o) => o.label.startsWith(label));
      const param = params.filter && `filter[${params.filter.field}]`;
      const [filtered, sorted] = [selections.findIndex((s) => s.filter), selections.findIndex((s) => s.sort)];
      const examples = [
        { i: 0, s: filtered, odd: pick('offset=-1 ') },
        { i: 0, s: sorted, odd: pick('limit=abc ') },
        { i: 0, s: filtered, odd: pick('limit=1e2 ') },
        { i: 0, s: sorted, odd: pick('limit=0 ') },
        // The middle of the length range, and the character sets a parser or a column may choke on.
        { i: 0, s: 0, odd: param && oddString(param, 'A', 300) },
        { i: 0, s: filtered, odd: params.sort && oddString('sort', 'é中😀', 40) },
        { i: 0, s: sorted, odd: param && oddString(param, '\u0001\u001f', 3) },
        ...listings.slice(1).map((_, k) => ({ i: k + 1, s: 0, odd: pick('offset=1.5 ') })),
      ]
        .map((e) => ({ ...e, s: Math.max(0, e.s) }))
        .filter((e): e is { i: number; s: number; odd: OddInput } => e.odd !== undefined)
        // Covered once, the coverage phase sends the letters, the exponent, the lengths and the character families:
        // of these, the negative and the zero.
        .filter((e) => !coversOnce(ctx.depth) || /^(offset=-1|limit=0) /.test(e.odd.label));
      const listingOf = (k: { i: number; s: number }) => withSelection(listings[k.i] as Listing, selections[k.s] ?? {});
      await forAll(
        ctx,
        arb,
        async (k) => robustnessViolation(await sendOdd(ctx, listingOf(k), k.odd), labelOf(listingOf(k), k.odd), c),
        {
          describe: (k) => labelOf(listingOf(k), k.odd),
          examples,
          numRuns: runsOn(ctx, c, examples.length, examples.length + ctx.target.fcNumRuns),
        },
      );
    },
  );
});
