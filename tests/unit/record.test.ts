/** How a check ends (core/run/record.ts): whatever its body did becomes its one record. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BudgetExhausted, TargetGone, TransportError } from '../../core/client/http.ts';
import { registerSecret } from '../../core/model/secrets.ts';
import { RuleViolation } from '../../core/model/verdict.ts';
import { DataChanged } from '../../core/run/changes.ts';
import { NotRun } from '../../core/run/check.ts';
import { notRun, recordOf, WrongRule } from '../../core/run/record.ts';
import { Unusable } from '../../core/run/walk.ts';

const KEY = 'sk_test_RecordCANARYq7Z3xW9vB2n';
registerSecret(KEY);
const ctx = (rule: 'PAG-SIZE' | 'ADV-SCHEME' = 'PAG-SIZE', unexercised: string[] = []) => ({
  rule,
  title: `${rule} a check`,
  notes: new Set([`a note ${KEY}`]),
  unexercised,
});
const threw = (error: unknown) => ({ threw: true as const, error });

describe('recordOf', () => {
  test('a body that returns passes; with a reason the data could not show the rule, it is not exercised', () => {
    assert.deepEqual(recordOf(ctx(), { threw: false }, 3), {
      rule: 'PAG-SIZE',
      check: 'PAG-SIZE a check',
      verdict: 'pass',
      reproduction: [],
      requests: 3,
      notes: ['a note [REDACTED]'],
    });
    const r = recordOf(ctx('PAG-SIZE', ['7 records', 'one status']), { threw: false }, 1);
    assert.deepEqual([r.verdict, r.cause, r.reason], ['not exercised', 'data', '7 records; one status']);
  });

  test("a violation of the check's own rule fails it (advisory for an ADVISORY rule), evidence by field", () => {
    const v = { rule: 'PAG-SIZE' as const, expected: '7 records', received: `6 records for ${KEY}` };
    const r = recordOf(ctx(), threw(new RuleViolation(v).withCounterexample('(seed 1): offset=3', 'FC_SEED=1 …')), 2);
    assert.deepEqual(
      [r.verdict, r.expected, r.received, r.counterexample, r.replay],
      ['fail', '7 records', '6 records for [REDACTED]', '(seed 1): offset=3', 'FC_SEED=1 …'],
    );
    const unusable = recordOf(ctx(), threw(new Unusable(v)), 1);
    assert.equal(unusable.verdict, 'fail');
    const adv = { rule: 'ADV-SCHEME' as const, expected: '401', received: '200' };
    assert.equal(recordOf(ctx('ADV-SCHEME'), threw(new RuleViolation(adv)), 1).verdict, 'advisory');
  });

  test('what the evidence may follow from, and whether the cases were drawn from the seed, go into the record', () => {
    const v = {
      rule: 'PAG-SIZE' as const,
      expected: '7 records',
      received: '6 records',
      derivedFrom: [{ rule: 'PAG-ECHO' as const, why: `echoed offset 0 to ${KEY}` }],
    };
    const drawn = new RuleViolation(v).withCounterexample('(seed 1): offset=3', 'FC_SEED=1 …', true);
    const r = recordOf({ ...ctx(), seeded: true }, threw(drawn), 2);
    assert.deepEqual(
      [r.derivedFrom, r.seeded, r.drawnCase],
      [[{ rule: 'PAG-ECHO', why: 'echoed offset 0 to [REDACTED]' }], true, true],
    );
    const plain = recordOf(ctx(), threw(new RuleViolation({ ...v, derivedFrom: undefined })), 2);
    assert.deepEqual([plain.derivedFrom, plain.seeded, plain.drawnCase], [undefined, undefined, undefined]);
    assert.equal(recordOf({ ...ctx(), seeded: true }, { threw: false }, 1).seeded, true);
  });

  test("another rule's violation is a bug of the suite: inconclusive, cause crash, naming both rules", () => {
    const v = { rule: 'PAG-TOTAL' as const, expected: 'x', received: 'y' };
    for (const error of [new RuleViolation(v), new WrongRule('PAG-SIZE', 'PAG-TOTAL')]) {
      const r = recordOf(ctx(), threw(error), 1);
      assert.deepEqual([r.verdict, r.cause], ['inconclusive', 'crash']);
      assert.match(r.reason ?? '', /a check of PAG-SIZE reported a violation of PAG-TOTAL/);
    }
  });

  test('what keeps a check from judging makes it inconclusive, with the cause', () => {
    const cases: Array<[unknown, string]> = [
      [new DataChanged('GET /x answered total 1, then 2'), 'data changed'],
      [new BudgetExhausted(10), 'budget'],
      [new TargetGone(3), 'target gone'],
      [new TransportError('http://h/x', 'refused', 3), 'transport'],
      [new TypeError(`cannot read ${KEY}`), 'crash'],
    ];
    for (const [error, cause] of cases) {
      const r = recordOf(ctx(), threw(error), 1);
      assert.deepEqual([r.verdict, r.cause], ['inconclusive', cause]);
      assert.ok(!r.reason?.includes(KEY));
    }
  });

  test('a check that cannot start is not run, with the reason it gave', () => {
    const r = recordOf(ctx(), threw(new NotRun('needs input', 'needs API_LIVE_KEY')), 0);
    assert.deepEqual([r.verdict, r.cause, r.reason], ['not run', 'needs input', 'needs API_LIVE_KEY']);
    const n = notRun(ctx(), 'not selected', 'left out by --grep');
    assert.deepEqual([n.verdict, n.requests], ['not run', 0]);
  });
});
