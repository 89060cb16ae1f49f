/**
 * §5.3–§5.6 Modes, §1 isolation and §7 404: which key may list which merchant, and that listings of different
 * modes or merchants never share a record. Read with reading.md "Keys, modes, merchants".
 */
import type { TestInfo } from '@playwright/test';
import { allowedViolation, firstViolation, otherModeViolation, unknownMerchantViolation } from '../checks/auth.ts';
import { type IsolatedListing, sharedRecordsViolation } from '../checks/isolation.ts';
import type { Target } from '../fixtures/config.ts';
import { enumerate, type Listing, paymentsPath, Unusable } from '../fixtures/dataset.ts';
import { type ApiClient, asKey, authLabel } from '../fixtures/http.ts';
import { neverCreatedId } from '../fixtures/key-mutations.ts';
import type { RuleId } from '../fixtures/rules.ts';
import { check, test } from '../fixtures/test.ts';
import { assertNoViolation } from '../fixtures/violation.ts';

const sandboxMerchants = (target: Target) =>
  [target.merchants.sandbox, target.merchants.otherSandbox].filter((m): m is string => !!m);

test.describe('§5.5, §5.6 Which key may list which merchant', () => {
  // §5.5: "Test keys can be used with sandbox merchant accounts"; §5.6: "Only test keys can be used with sandbox merchants."
  check(
    'MODE-TEST-SANDBOX the test key lists the sandbox merchant (200)',
    async ({ api, target }) => {
      const answers = [];
      for (const m of sandboxMerchants(target))
        answers.push(allowedViolation('MODE-TEST-SANDBOX', await api.get(paymentsPath(m), { auth: asKey('test') })));
      assertNoViolation(firstViolation(answers));
    },
    { tag: '@cutover' },
  );

  // §5.6 "Only test keys can be used with sandbox merchants"; §7: 404 when "an object of the other mode is
  // requested (for example a live object with a sandbox setup, or the reverse)". 403 is not the answer §7 gives.
  check(
    'MODE-LIVE-SANDBOX the live key on a sandbox merchant gets 404',
    async ({ api, target }) => {
      const answers = [];
      for (const m of sandboxMerchants(target))
        answers.push(otherModeViolation(await api.get(paymentsPath(m), { auth: asKey('live') })));
      assertNoViolation(firstViolation(answers));
    },
    { needs: ['live'], tag: '@cutover' },
  );

  // §5.5: "Test keys can be used with sandbox merchant accounts and also with live merchant accounts."
  check(
    'MODE-TEST-LIVE the test key lists the live merchant (200)',
    async ({ api, target }) => {
      const path = paymentsPath(target.merchants.live as string);
      assertNoViolation(allowedViolation('MODE-TEST-LIVE', await api.get(path, { auth: asKey('test') })));
    },
    { needs: ['liveMerchant'] },
  );
});

test.describe('§5.3, §5.4 The live key on the live merchant', () => {
  // §5.3 "The key selects the mode"; §5.4 "Live keys (sk_live_) operate in live mode": the live merchant's own
  // listing is readable with the live key.
  check(
    'MODE-LIVE-LIVE the live key lists the live merchant (200)',
    async ({ api, target }) => {
      const path = paymentsPath(target.merchants.live as string);
      assertNoViolation(allowedViolation('MODE-LIVE-LIVE', await api.get(path, { auth: asKey('live') })));
    },
    { needs: ['live', 'liveMerchant'], tag: '@cutover' },
  );
});

/** A listing to compare, and the rule that requires it to be readable (if another check covers that). */
interface Side extends Listing {
  readableBy?: Extract<RuleId, 'MODE-TEST-SANDBOX' | 'MODE-TEST-LIVE'>;
}

/**
 * Enumerates both listings (memoised per worker) and checks that they share no record. A listing that another
 * rule requires to be readable, but is not, leaves nothing to compare: the check is skipped and names that rule,
 * whose own check fails. Any other unreadable listing fails this check's rule.
 */
async function isolated(
  ctx: { api: ApiClient; target: Target; info: TestInfo },
  rule: IsolationRule,
  a: Side,
  b: Side,
) {
  const read = async (l: Side): Promise<IsolatedListing & { capped: boolean }> => {
    const label = `merchant ${l.merchant} (${authLabel(l.auth)})`;
    try {
      const set = await enumerate(ctx.api, ctx.target, l, rule);
      return { label, records: set.records, pages: set.pages, capped: set.capped };
    } catch (error) {
      if (!(error instanceof Unusable) || !l.readableBy) throw error;
      test.skip(
        true,
        `not checked: ${label} is not a readable listing (${error.violation.received}); see ${l.readableBy}`,
      );
      throw error;
    }
  };
  const [left, right] = [await read(a), await read(b)];
  assertNoViolation(sharedRecordsViolation(rule, left, right));
  // A pass over an empty or capped listing proves less than it seems: say so in the report.
  for (const l of [left, right]) {
    if (l.records.length === 0)
      ctx.info.annotations.push({ type: 'note', description: `${l.label} is empty: nothing to compare` });
    if (l.capped) {
      ctx.info.annotations.push({
        type: 'note',
        description: `${l.label} compared on its first ${l.records.length} records (API_MAX_RECORDS)`,
      });
    }
  }
}

type IsolationRule = Extract<RuleId, 'MODE-ISOLATION' | 'MER-ISOLATION'>;
const testKeyOn = (merchant: string, readableBy: Side['readableBy']): Side => ({
  merchant,
  auth: asKey('test'),
  readableBy,
});

test.describe('§1 Isolation of modes and merchants', () => {
  // §1: "Objects created in one mode are not accessible from the other." §5.5: with a live merchant account "the
  // test data appears alongside the live data"; reading.md: the test-key listing holds only the test-mode payments,
  // the live-key listing only the live ones, so "the two listings of one merchant share no record".
  check(
    'MODE-ISOLATION test-key and live-key listings of the live merchant share no record',
    async (ctx) => {
      const merchant = ctx.target.merchants.live as string;
      await isolated(ctx, 'MODE-ISOLATION', testKeyOn(merchant, 'MODE-TEST-LIVE'), { merchant, auth: asKey('live') });
    },
    { needs: ['live', 'liveMerchant'] },
  );

  // reading.md: "A listing holds only that merchant's payments: listings of two different merchants share no record."
  check(
    'MER-ISOLATION the sandbox and the live merchant listings (test key) share no record',
    async (ctx) => {
      const { sandbox, live } = ctx.target.merchants;
      await isolated(
        ctx,
        'MER-ISOLATION',
        testKeyOn(sandbox, 'MODE-TEST-SANDBOX'),
        testKeyOn(live as string, 'MODE-TEST-LIVE'),
      );
    },
    { needs: ['liveMerchant'] },
  );

  check(
    'MER-ISOLATION the two sandbox merchants share no record',
    async (ctx) => {
      const { sandbox, otherSandbox } = ctx.target.merchants;
      await isolated(
        ctx,
        'MER-ISOLATION',
        testKeyOn(sandbox, 'MODE-TEST-SANDBOX'),
        testKeyOn(otherSandbox as string, 'MODE-TEST-SANDBOX'),
      );
    },
    { needs: ['otherSandbox'] },
  );
});

test.describe('§7 Unknown merchant (advisory)', () => {
  // §7 names 404 for an object of the other mode; reading.md: a valid key on an unknown merchant gets 404,
  // 403 is acceptable, anything else is an advisory finding. Ids are shaped like the configured ones.
  check(
    'ADV-UNKNOWN-MERCHANT a valid key on an unknown merchant gets 404 (403 acceptable)',
    async ({ api, target }) => {
      const known = Object.values(target.merchants).filter((m): m is string => !!m);
      const ids = [
        neverCreatedId(target.merchants.sandbox, 4, known),
        neverCreatedId(target.merchants.sandbox, 1, known),
      ];
      const answers = [];
      for (const id of ids)
        answers.push(unknownMerchantViolation(await api.get(paymentsPath(id), { auth: asKey('test') })));
      if (target.keys.live && target.merchants.live) {
        const id = neverCreatedId(target.merchants.live, 4, known);
        answers.push(unknownMerchantViolation(await api.get(paymentsPath(id), { auth: asKey('live') })));
      }
      assertNoViolation(firstViolation(answers));
    },
  );
});
