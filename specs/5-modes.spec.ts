/**
 * §5.3–§5.6 Modes, §1 isolation and §7 404: which key may list which merchant — with any query and header spelling
 * (the access ownAccessProperty, fixtures/access.ts) — and that listings of different modes or merchants never share a record,
 * under every filter and sort. Read with reading.md "Keys, modes, merchants".
 */
import { ACCESS_ORACLE } from '../checks/access-oracle.ts';
import { allowedViolation, firstViolation, otherModeViolation } from '../checks/auth.ts';
import { sharedRecordsViolation } from '../checks/isolation.ts';
import { asKey } from '../core/model/credentials.ts';
import {
  describeListing,
  describeSelection,
  type Listing,
  paymentsPath,
  SELECTIONS,
  withSelection,
} from '../core/model/listing.ts';
import type { IsolatedListing } from '../core/model/result-set.ts';
import type { RuleId } from '../core/model/rules.ts';
import type { Target } from '../core/model/target.ts';
import { assertNoViolation } from '../core/model/verdict.ts';
import { accessProperty } from '../core/run/access-property.ts';
import { NotRun, notExercised } from '../core/run/check.ts';
import { enumerate, Unusable } from '../core/run/walk.ts';
import { type CheckContext, settle, test } from '../fixtures/test.ts';

const sandboxMerchants = (target: Target) =>
  [target.merchants.sandbox, target.merchants.otherSandbox].filter((m): m is string => !!m);

/** The access-matrix property of the check's own rule. */
const ownAccessProperty = async (ctx: CheckContext) => {
  await accessProperty(ctx, ACCESS_ORACLE);
};

test.describe('§5.5, §5.6 Which key may list which merchant', () => {
  // §5.5: "Test keys can be used with sandbox merchant accounts"; §5.6: "Only test keys can be used with sandbox merchants."
  test(
    'MODE-TEST-SANDBOX the test key lists the sandbox merchants (200)',
    { tag: '@cutover' },
    settle(async ({ api, target, rule }) => {
      const answers = [];
      for (const m of sandboxMerchants(target)) {
        answers.push(
          allowedViolation(rule as 'MODE-TEST-SANDBOX', await api.get(paymentsPath(m), { auth: asKey('test') })),
        );
      }
      assertNoViolation(firstViolation(answers));
    }),
  );
  test(
    'MODE-TEST-SANDBOX the test key lists the sandbox merchants with any query and spelling (200)',
    settle(ownAccessProperty),
  );

  // §5.6 "Only test keys can be used with sandbox merchants"; §7: 404 when "an object of the other mode is
  // requested (for example a live object with a sandbox setup, or the reverse)". 403 is not the answer §7 gives.
  test(
    'MODE-LIVE-SANDBOX the live key on a sandbox merchant gets 404',
    { tag: '@cutover' },
    settle(
      async ({ api, target }) => {
        const answers = [];
        for (const m of sandboxMerchants(target))
          answers.push(otherModeViolation(await api.get(paymentsPath(m), { auth: asKey('live') })));
        assertNoViolation(firstViolation(answers));
      },
      { needs: ['live'] },
    ),
  );
  test(
    'MODE-LIVE-SANDBOX the live key on a sandbox merchant gets 404 with any query and spelling',
    settle(ownAccessProperty, { needs: ['live'] }),
  );

  // §5.5: "Test keys can be used with sandbox merchant accounts and also with live merchant accounts."
  test(
    'MODE-TEST-LIVE the test key lists the live merchant with any query and spelling (200)',
    settle(ownAccessProperty, { needs: ['liveMerchant'] }),
  );

  // §5.3 "The key selects the mode"; §5.4 "Live keys (sk_live_) operate in live mode".
  test(
    'MODE-LIVE-LIVE the live key lists the live merchant (200)',
    { tag: '@cutover' },
    settle(
      async ({ api, target, rule }) => {
        const path = paymentsPath(target.merchants.live as string);
        assertNoViolation(allowedViolation(rule as 'MODE-LIVE-LIVE', await api.get(path, { auth: asKey('live') })));
      },
      { needs: ['live', 'liveMerchant'] },
    ),
  );
  test(
    'MODE-LIVE-LIVE the live key lists the live merchant with any query and spelling (200)',
    settle(ownAccessProperty, { needs: ['live', 'liveMerchant'] }),
  );
});

/** A listing to compare, and the rule that requires it to be readable (if another check covers that). */
interface Side extends Listing {
  readableBy?: Extract<RuleId, 'MODE-TEST-SANDBOX' | 'MODE-TEST-LIVE' | 'MODE-LIVE-LIVE'>;
}

/**
 * Enumerates both listings under every selection (memoised per worker) and checks that they share no record. A
 * listing that another rule requires to be readable, but is not, leaves nothing to compare: the check is skipped and
 * names that rule, whose own check fails. Any other unreadable listing fails this check's rule.
 */
async function isolated(ctx: CheckContext, a: Side, b: Side) {
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
  for (const s of SELECTIONS) {
    const [left, right] = [await read({ ...a, ...withSelection(a, s) }), await read({ ...b, ...withSelection(b, s) })];
    assertNoViolation(sharedRecordsViolation(ctx.rule as 'MODE-ISOLATION', left, right));
    // A pass over an empty or partly read listing proves less than it seems: say so in the report.
    if (s !== SELECTIONS[0]) continue;
    for (const l of [left, right]) {
      if (l.records.length === 0) notExercised(ctx, `${l.label} is empty: nothing to compare`);
      if (!l.complete) ctx.notes.add(`${l.label} compared on its first ${l.records.length} records (API_MAX_RECORDS)`);
    }
  }
}

const keyOn = (slot: 'test' | 'live', merchant: string, readableBy: Side['readableBy']): Side => ({
  merchant,
  auth: asKey(slot),
  readableBy,
});

test.describe('§1 Isolation of modes and merchants, under every filter and sort', () => {
  const selections = SELECTIONS.map(describeSelection).join(', ');
  // §1: "Objects created in one mode are not accessible from the other." §5.5: with a live merchant account "the
  // test data appears alongside the live data"; reading.md: the test-key listing holds only the test-mode payments,
  // the live-key listing only the live ones, so "the two listings of one merchant share no record".
  test(
    `MODE-ISOLATION test-key and live-key listings of the live merchant share no record (${selections})`,
    settle(
      async (ctx) => {
        const merchant = ctx.target.merchants.live as string;
        await isolated(ctx, keyOn('test', merchant, 'MODE-TEST-LIVE'), keyOn('live', merchant, 'MODE-LIVE-LIVE'));
      },
      { needs: ['live', 'liveMerchant'] },
    ),
  );

  // reading.md: "A listing holds only that merchant's payments: listings of two different merchants share no record."
  test(
    `MER-ISOLATION the sandbox and the live merchant listings (test key) share no record (${selections})`,
    settle(
      async (ctx) => {
        const { sandbox, live } = ctx.target.merchants;
        await isolated(
          ctx,
          keyOn('test', sandbox, 'MODE-TEST-SANDBOX'),
          keyOn('test', live as string, 'MODE-TEST-LIVE'),
        );
      },
      { needs: ['liveMerchant'] },
    ),
  );

  test(
    `MER-ISOLATION the two sandbox merchants share no record (${selections})`,
    settle(
      async (ctx) => {
        const { sandbox, otherSandbox } = ctx.target.merchants;
        await isolated(
          ctx,
          keyOn('test', sandbox, 'MODE-TEST-SANDBOX'),
          keyOn('test', otherSandbox as string, 'MODE-TEST-SANDBOX'),
        );
      },
      { needs: ['otherSandbox'] },
    ),
  );
});

test.describe('§7 Unknown merchant (advisory)', () => {
  // §7 names 404 for an object of the other mode; reading.md: a valid key on an unknown merchant gets 404, 403 is
  // acceptable, anything else is an advisory finding. Ids are shaped like the configured ones.
  test(
    'ADV-UNKNOWN-MERCHANT a valid key on an unknown merchant gets 404 (403 acceptable), with any query',
    settle(ownAccessProperty),
  );
});
