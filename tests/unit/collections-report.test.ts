/**
 * Other collections in what the run judges and reports: the watcher tags a collection's records with it (a refund
 * and a payment sharing an id are two records; the restricted key's permission is the collection's), the checks of
 * every answer take the findings about its records, and the rule matrix becomes a grid of rules × collections
 * (console, conformance.md, conformance.html, JUnit's test suites). Without other collections, nothing changes.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { TestCase, TestResult } from '@playwright/test/reporter';
import { crossing, keyLeakViolations, provenanceViolations } from '../../checks/provenance.ts';
import type { Collection } from '../../core/model/collection.ts';
import type { Provenance, WatchedAnswer } from '../../core/model/provenance.ts';
import { scopeOf } from '../../core/run/watch.ts';
import { conformanceHtml } from '../../reporters/html.ts';
import { junitXml } from '../../reporters/junit.ts';
import { recordOfResult } from '../../reporters/records.ts';
import { summarize } from '../../reporters/summary.ts';
import { consoleTable } from '../../reporters/summary-text.ts';
import { fakeExchange as exchange } from '../support/exchange.ts';
import { checkRecord, failed, runInfo } from '../support/records.ts';
import { testTarget } from '../support/target.ts';

const target = testTarget({
  keys: { test: 'sk_test_UnitTestKey01', live: 'sk_live_UnitLiveKey01', restricted: 'sk_test_UnitRestricted1' },
  merchants: { sandbox: 'msb_1', live: 'mlv_1' },
});
const collection = (name: string, over: Partial<Collection> = {}): Collection => ({
  name,
  path: `/payments/n1/merchant/{merchantId}/${name}`,
  params: {},
  access: { scope: 'merchant', modes: ['test', 'live'], restrictedKey: 'forbidden' },
  filters: [],
  sorts: [],
  source: 'x',
  ...over,
});
const REFUNDS = collection('refunds');
const USERS = collection('users', {
  path: '/orgs/{org}/users',
  params: { org: 'o 1' },
  access: { scope: 'account', modes: ['test', 'live'], restrictedKey: 'unknown' },
});

describe('the watcher knows the collections', () => {
  test("a collection's path is a list, of the merchant it names (folded) or of the account", () => {
    const on = (path: string, collections = [REFUNDS, USERS]) =>
      scopeOf({ ...exchange({ path }), method: 'GET' }, target, collections);
    assert.deepEqual(
      [on('/payments/n1/merchant/MSB_1/refunds')].map((s) => [s.endpoint, s.collection, s.merchant]),
      [['list', 'refunds', 'sandbox']],
    );
    assert.equal(on('/payments/n1/merchant/msb_9/refunds').merchant, 'unknown');
    assert.deepEqual([on('/orgs/o%201/users').collection, on('/orgs/o%201/users').merchant], ['users', undefined]);
    assert.equal(on('/payments/n1/merchant/msb_1/refunds', []).endpoint, 'other', 'without collections: as before');
  });

  test('the restricted key may see the records of a collection whose permission it has, or the file does not say', () => {
    const restricted = (collections: Collection[]) => ({
      ...scopeOf({ ...exchange({}), auth: { kind: 'key', slot: 'restricted' } }, target, collections),
    });
    const p = (collection?: string): Provenance => ({
      merchant: 'sandbox',
      mode: 'test',
      ...(collection ? { collection } : {}),
    });
    const s = restricted([REFUNDS, USERS]);
    assert.deepEqual(s.mayList, ['users']);
    assert.equal(crossing(s, p()), 'AUTH-FORBIDDEN');
    assert.equal(crossing(s, p('refunds')), 'AUTH-FORBIDDEN');
    assert.equal(crossing(s, p('users')), undefined);
  });
});

describe('records of two collections are two records', () => {
  const learned = (
    collection: string | undefined,
    record: Record<string, unknown>,
    mode: 'test' | 'live' = 'test',
  ): WatchedAnswer => ({
    project: 'checks',
    check: null,
    status: 200,
    request: `GET ${collection ?? 'payments'} (${mode})`,
    query: [],
    curl: 'curl',
    scope: {
      presenter: mode,
      mode,
      method: 'GET',
      endpoint: 'list',
      merchant: 'sandbox',
      ...(collection ? { collection } : {}),
    },
    learned: { provenance: { merchant: 'sandbox', mode, ...(collection ? { collection } : {}) }, records: [record] },
  });
  const payment = { id: 1001, merchantId: 'msb_1', amount: 1200, currency: 'EUR', status: 'COMPLETED' };
  const refund = { id: 1001, merchantId: 'msb_1', amount: 1200, currency: 'EUR', reason: 'duplicate' };

  test('a refund sharing a payment id (and two of its fields) is not that payment: no crossing', () => {
    const liveRefund = learned('refunds', refund, 'live');
    for (const rule of ['MODE-ISOLATION', 'MER-ISOLATION'] as const) {
      assert.deepEqual(provenanceViolations([learned(undefined, payment), liveRefund], rule).violations, []);
    }
    // The same refund in both modes is a crossing, and it is the refunds' finding.
    const both = [learned('refunds', refund), liveRefund];
    assert.equal(provenanceViolations(both, 'MODE-ISOLATION', { collection: 'refunds' }).violations.length, 1);
    assert.equal(provenanceViolations(both, 'MODE-ISOLATION', { collection: undefined }).violations.length, 0);
  });

  test("an answer on a collection's path matches its own records as records, another's only whole", () => {
    const leak = (value: Record<string, unknown>): WatchedAnswer => ({
      ...learned('refunds', {}),
      request: 'GET refunds (none)',
      learned: undefined,
      status: 401,
      scope: { presenter: 'none', method: 'GET', endpoint: 'list', merchant: 'sandbox', collection: 'refunds' },
      objects: [{ where: 'body', value }],
    });
    const seen = [learned(undefined, payment), learned('refunds', { ...refund, id: 'ref_0123456789' })];
    const found = (value: Record<string, unknown>) =>
      provenanceViolations([...seen, leak(value)], 'AUTH-MISSING').violations.length;
    assert.equal(found({ id: 1001, amount: 1200, currency: 'EUR' }), 0, 'a part of a payment is not a payment here');
    assert.equal(found(payment), 1, 'a whole payment is');
    assert.equal(found({ id: 'ref_0123456789', amount: 1200 }), 1, 'a refund is matched as a record on its own path');
    const keyLeak = { ...leak({}), keyLeak: 'body' };
    assert.equal(keyLeakViolations([keyLeak], { collection: 'refunds' }).length, 1);
    assert.equal(keyLeakViolations([keyLeak], { collection: undefined }).length, 0);
  });
});

describe('the grid of rules × collections', () => {
  const records = [
    checkRecord('PAG-SIZE any request', 'pass', { requests: 20 }),
    failed('PAG-SIZE refunds: any request', '9 records', { collection: 'refunds', requests: 7 }),
    checkRecord('AUTH-STATUS valid keys', 'pass', { requests: 3 }),
  ];
  test('each rule on each collection; "—" where a rule has no check there; the JSON carries the cells', () => {
    const s = summarize(records, runInfo());
    assert.deepEqual(s.collections, ['payments', 'refunds']);
    const size = s.rules.find((r) => r.id === 'PAG-SIZE');
    assert.deepEqual(size?.collections, {
      payments: { verdict: 'pass', checks: 1, requests: 20 },
      refunds: { verdict: 'fail', checks: 1, requests: 7 },
    });
    assert.equal(size?.verdict, 'fail', "the rule's verdict is the most telling of every collection's");
    const table = consoleTable(s, 'm.md');
    assert.match(table, /Rules × collections/);
    assert.match(table, /PAG-SIZE +pass 20 +fail 7/);
    assert.match(table, /AUTH-STATUS +pass 3 +—/);
    assert.match(conformanceHtml(s), /<h2>Rules × collections<\/h2>/);
  });
  test('JUnit: a test suite per collection, each test case naming its collection', () => {
    const xml = junitXml(summarize(records, runInfo()));
    assert.match(xml, /<testsuite name="payments \(the spec, §4.2\)" tests="2" failures="0"/);
    assert.match(xml, /<testsuite name="refunds \(--collections\)" tests="1" failures="1"/);
    assert.match(xml, /<property name="collection" value="refunds"\/>/);
  });
  test('without other collections: no grid, a suite per rule, as before', () => {
    const s = summarize(
      [records[0], records[2]].filter((r) => r !== undefined),
      runInfo(),
    );
    assert.equal(s.collections, undefined);
    assert.equal(s.rules[0]?.collections, undefined);
    assert.doesNotMatch(consoleTable(s, 'm.md'), /collections/);
    assert.match(junitXml(s), /<testsuite name="PAG-SIZE \(MUST/);
  });
});

describe("a collection's check that never ended", () => {
  test('its not-run record names its collection, as its settled record would (the grid and JUnit file it there)', () => {
    const test = {
      title: 'PAG-SIZE refunds: every page holds min(limit, total - offset) records',
      annotations: [{ type: 'collection', description: 'refunds' }],
      timeout: 1000,
    } as unknown as TestCase;
    for (const status of ['interrupted', 'skipped'] as const) {
      const record = recordOfResult(test, { status, attachments: [], errors: [] } as unknown as TestResult);
      assert.equal(record?.verdict, 'not run');
      assert.equal(record?.collection, 'refunds');
    }
  });
});
