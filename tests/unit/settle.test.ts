/**
 * settle (fixtures/test.ts), the one way a check ends, called directly with a stand-in for Playwright's TestInfo: the
 * record it attaches, and how the test ends (passes, fails, is skipped), case by case with literal expectations.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { TestInfo } from '@playwright/test';
import { ApiClient } from '../../core/client/http.ts';
import { CHECK_RECORD_ATTACHMENT, type CheckRecord, RuleViolation } from '../../core/model/verdict.ts';
import type { CheckContext } from '../../core/run/check.ts';
import { type SettleOptions, settle } from '../../fixtures/test.ts';
import { testTarget } from '../support/target.ts';

interface Ended {
  record: CheckRecord;
  threw: Error | undefined;
  skipped: string | undefined;
  annotations: Array<{ type: string; description?: string }>;
}

/** Runs a check's body through settle as Playwright would, with `title`; what it attached and how it ended. */
async function settled(
  title: string,
  body: (ctx: CheckContext) => Promise<void>,
  how: { strict?: boolean; recordViolations?: boolean; settle?: SettleOptions } = {},
): Promise<Ended> {
  const target = testTarget({ strict: how.strict ?? false });
  const api = new ApiClient(target);
  const attached: Array<{ name: string; body: string }> = [];
  let skipped: string | undefined;
  const info = {
    title,
    titlePath: ['2-envelope.spec.ts', title],
    testId: 't1',
    annotations: [] as Array<{ type: string; description?: string }>,
    config: { workers: 1 },
    project: { name: 'checks' },
    expectedStatus: 'passed',
    setTimeout: () => {},
    attach: async (name: string, o: { body: string }) => void attached.push({ name, body: o.body }),
    skip: (_: boolean, reason: string) => {
      skipped = reason;
    },
  } as unknown as TestInfo;
  const mock = how.recordViolations ? { recordViolations: true } : undefined;
  let threw: Error | undefined;
  try {
    await settle(body, how.settle)({ target, api, requestLog: undefined, mock }, info);
  } catch (error) {
    threw = error as Error;
  }
  await api.close();
  const json = attached.find((a) => a.name === CHECK_RECORD_ATTACHMENT)?.body;
  assert.ok(json, 'every check attaches its record');
  return { record: JSON.parse(json) as CheckRecord, threw, skipped, annotations: info.annotations };
}

const violation = (rule: 'PAG-SIZE' | 'PAG-TOTAL' | 'ADV-SCHEME') =>
  new RuleViolation({ rule, expected: '7 records', received: '6 records' });

describe('settle', () => {
  test('a body that returns passes: the record says pass, with the rule and the title', async () => {
    const { record, threw, annotations } = await settled('PAG-SIZE every window', async () => {});
    assert.deepEqual(
      [record.rule, record.check, record.verdict, threw],
      ['PAG-SIZE', 'PAG-SIZE every window', 'pass', undefined],
    );
    assert.deepEqual(annotations.slice(-2), [
      { type: 'rule', description: 'PAG-SIZE' },
      { type: 'verdict', description: 'pass' },
    ]);
  });

  test("a violation of the check's own MUST rule fails the test, and its record says fail with the evidence", async () => {
    const { record, threw } = await settled('PAG-SIZE every window', async () => {
      throw violation('PAG-SIZE');
    });
    assert.deepEqual([record.verdict, record.expected, record.received], ['fail', '7 records', '6 records']);
    assert.match(threw?.message ?? '', /^PAG-SIZE violated/);
  });

  test('an advisory finding fails the test only with CONFORMANCE_STRICT=1', async () => {
    const body = async () => {
      throw violation('ADV-SCHEME');
    };
    const lenient = await settled('ADV-SCHEME Basic credentials', body);
    assert.deepEqual([lenient.record.verdict, lenient.threw], ['advisory', undefined]);
    const strict = await settled('ADV-SCHEME Basic credentials', body, { strict: true });
    assert.equal(strict.record.verdict, 'advisory');
    assert.match(strict.threw?.message ?? '', /^ADV-SCHEME violated/);
  });

  test("a violation of another rule is a bug of the suite: inconclusive (crash), never the other rule's failure", async () => {
    const { record, threw } = await settled('PAG-SIZE every window', async () => {
      throw violation('PAG-TOTAL');
    });
    assert.deepEqual([record.verdict, record.cause], ['inconclusive', 'crash']);
    assert.match(record.reason ?? '', /a check of PAG-SIZE reported a violation of PAG-TOTAL/);
    assert.ok(threw);
  });

  test('a missing optional input: not run, skipped with the variable named, the body never called', async () => {
    let called = false;
    const { record, skipped, threw } = await settled(
      'AUTH-FORBIDDEN the restricted key',
      async () => {
        called = true;
      },
      { settle: { needs: ['restricted'] } },
    );
    assert.deepEqual(
      [record.verdict, record.cause, record.reason, skipped, threw, called],
      ['not run', 'needs input', 'needs API_RESTRICTED_KEY', 'needs API_RESTRICTED_KEY', undefined, false],
    );
  });

  test("the proof's fault runs keep a failure in the record and end the test without failing it", async () => {
    const { record, threw } = await settled(
      'PAG-SIZE every window',
      async () => {
        throw violation('PAG-SIZE');
      },
      { recordViolations: true },
    );
    assert.deepEqual([record.verdict, threw], ['fail', undefined]);
  });
});
