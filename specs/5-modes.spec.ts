/**
 * §5.3–§5.6 Modes and §1 isolation, on every collection the run checks: which key may list which merchant (the
 * cutover checklist's few requests; the access matrix, specs/5-access.spec.ts, asks it with any query and spelling),
 * and that listings of different modes or merchants never share a record, under every filter and sort. Read with
 * reading.md "Keys, modes, merchants".
 */
import { allowedViolation, firstViolation, otherModeViolation } from '../checks/auth.ts';
import { sharedRecordsViolation } from '../checks/isolation.ts';
import { type Collection, collectionPath } from '../core/model/collection.ts';
import { asKey } from '../core/model/credentials.ts';
import {
  describeListing,
  describeSelection,
  type Listing,
  listingOf,
  namedFilters,
  selectionsOf,
  withSelection,
} from '../core/model/listing.ts';
import type { IsolatedListing } from '../core/model/result-set.ts';
import type { RuleId } from '../core/model/rules.ts';
import type { Target } from '../core/model/target.ts';
import { assertNoViolation } from '../core/model/verdict.ts';
import { type CheckContext, NotRun, notExercised } from '../core/run/check.ts';
import { firstFilters } from '../core/run/learn.ts';
import { enumerate, Unusable } from '../core/run/walk.ts';
import { eachCollection, listedBy } from '../fixtures/collections.ts';

const sandboxMerchants = (target: Target) =>
  [target.merchants.sandbox, target.merchants.otherSandbox].filter((m): m is string => !!m);

/** A listing to compare, and the rule that requires it to be readable (if another check covers that). */
interface Side extends Listing {
  readableBy?: Extract<RuleId, 'MODE-TEST-SANDBOX' | 'MODE-TEST-LIVE' | 'MODE-LIVE-LIVE'>;
}

/**
 * Enumerates both listings under every selection (memoised per worker) and checks that they share no record. A
 * listing that another rule requires to be readable, but is not, leaves nothing to compare: the check is skipped and
 * names that rule, whose own check fails. Any other unreadable listing fails this check's rule.
 */
async function isolated(ctx: CheckContext, c: Collection, a: Side, b: Side) {
  const read = async (l: Side): Promise<IsolatedListing & { complete: boolean }> => {
    try {
      const set = await enumerate(ctx, l);
      return { label: describeListing(l), records: set.records, pages: set.pages, complete: set.complete };
    } catch (error) {
      if (!(error instanceof Unusable) || !l.readableBy) throw error;
      const why = `${describeListing(l)} is not readable (${error.violation.received}); see ${l.readableBy}`;
      throw new NotRun('blocked', why);
    }
  };
  const selections = selectionsOf(c, await firstFilters(ctx, c));
  for (const s of selections) {
    const [left, right] = [await read({ ...a, ...withSelection(a, s) }), await read({ ...b, ...withSelection(b, s) })];
    assertNoViolation(sharedRecordsViolation(ctx.rule as 'MODE-ISOLATION', left, right));
    // A pass over an empty or partly read listing proves less than it seems: say so in the report.
    if (s !== selections[0]) continue;
    for (const l of [left, right]) {
      if (l.records.length === 0) notExercised(ctx, `${l.label} is empty: nothing to compare`);
      if (!l.complete) ctx.notes.add(`${l.label} compared on its first ${l.records.length} records (API_MAX_RECORDS)`);
    }
  }
}

const keyOn = (c: Collection, slot: 'test' | 'live', merchant: string, readableBy: Side['readableBy']): Side => ({
  ...listingOf(c, merchant, slot),
  readableBy,
});

/** The selections in a title: a filter's value is its first declared or named one, else written `V`. */
const selectionWords = (c: Collection) => {
  const known = namedFilters(c);
  const filters = c.filters.map((f) => known.find((x) => x.field === f.field) ?? { field: f.field, value: 'V' });
  return selectionsOf(c, filters).map(describeSelection).join(', ');
};

eachCollection('§5.5, §5.6 Which key may list which merchant (cutover checklist):', (c, check) => {
  if (c.access.scope !== 'merchant') return;
  const list = (merchant: string) => collectionPath(c, merchant);
  // §5.5: "Test keys can be used with sandbox merchant accounts"; §5.6: "Only test keys can be used with sandbox merchants."
  check(
    'MODE-TEST-SANDBOX',
    'the test key lists the sandbox merchants (200)',
    async ({ api, target, rule }) => {
      listedBy(c, 'test');
      const answers = [];
      for (const m of sandboxMerchants(target)) {
        const e = await api.get(list(m), { auth: asKey('test') });
        answers.push(allowedViolation(rule as 'MODE-TEST-SANDBOX', e, 'the test key on the sandbox merchant'));
      }
      assertNoViolation(firstViolation(answers));
    },
    { tags: ['@cutover'] },
  );

  // §5.6 "Only test keys can be used with sandbox merchants"; §7: 404 when "an object of the other mode is
  // requested (for example a live object with a sandbox setup, or the reverse)". 403 is not the answer §7 gives.
  check(
    'MODE-LIVE-SANDBOX',
    'the live key on a sandbox merchant gets 404',
    async ({ api, target }) => {
      listedBy(c, 'live');
      const answers = [];
      for (const m of sandboxMerchants(target))
        answers.push(otherModeViolation(await api.get(list(m), { auth: asKey('live') })));
      assertNoViolation(firstViolation(answers));
    },
    { needs: ['live'], tags: ['@cutover'] },
  );

  // §5.3 "The key selects the mode"; §5.4 "Live keys (sk_live_) operate in live mode".
  check(
    'MODE-LIVE-LIVE',
    'the live key lists the live merchant (200)',
    async ({ api, target, rule }) => {
      listedBy(c, 'live');
      const e = await api.get(list(target.merchants.live as string), { auth: asKey('live') });
      assertNoViolation(allowedViolation(rule as 'MODE-LIVE-LIVE', e, 'the live key on the live merchant (§5.4)'));
    },
    { needs: ['live', 'liveMerchant'], tags: ['@cutover'] },
  );
});

eachCollection('§1 Isolation of modes and merchants, under every filter and sort:', (c, check) => {
  const selections = selectionWords(c);
  // §1: "Objects created in one mode are not accessible from the other." §5.5: with a live merchant account "the
  // test data appears alongside the live data"; reading.md: the test-key listing holds only the test-mode records,
  // the live-key listing only the live ones, so "the two listings of one merchant share no record".
  if (c.access.scope === 'account') {
    check(
      'MODE-ISOLATION',
      `the test key's and the live key's listings share no record (${selections})`,
      async (ctx) => {
        for (const slot of ['test', 'live'] as const) listedBy(c, slot);
        await isolated(ctx, c, keyOn(c, 'test', '', undefined), keyOn(c, 'live', '', undefined));
      },
      { needs: ['live'] },
    );
    return;
  }
  check(
    'MODE-ISOLATION',
    `test-key and live-key listings of the live merchant share no record (${selections})`,
    async (ctx) => {
      for (const slot of ['test', 'live'] as const) listedBy(c, slot);
      const merchant = ctx.target.merchants.live as string;
      await isolated(
        ctx,
        c,
        keyOn(c, 'test', merchant, 'MODE-TEST-LIVE'),
        keyOn(c, 'live', merchant, 'MODE-LIVE-LIVE'),
      );
    },
    { needs: ['live', 'liveMerchant'] },
  );

  // reading.md: "A listing holds only that merchant's records: listings of two different merchants share no record."
  const others = [
    { what: 'the sandbox and the live merchant listings (test key)', role: 'live', needs: 'liveMerchant' },
    { what: 'the two sandbox merchants', role: 'otherSandbox', needs: 'otherSandbox' },
  ] as const;
  for (const { what, role, needs } of others) {
    const readableBy = role === 'live' ? 'MODE-TEST-LIVE' : 'MODE-TEST-SANDBOX';
    const body = async (ctx: CheckContext) => {
      listedBy(c, 'test');
      const { sandbox, [role]: other } = ctx.target.merchants;
      const [a, b] = [keyOn(c, 'test', sandbox, 'MODE-TEST-SANDBOX'), keyOn(c, 'test', other as string, readableBy)];
      await isolated(ctx, c, a, b);
    };
    check('MER-ISOLATION', `${what} share no record (${selections})`, body, { needs: [needs] });
  }
});
