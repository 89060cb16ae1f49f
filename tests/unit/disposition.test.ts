/**
 * What a verdict does to the run (core/model/disposition.ts), case by case, with literal expectations: the one
 * decision that settle, the outcome, JUnit, the HTML page, merge and the self-test's judge share.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { BaselineEntry } from '../../core/model/baseline.ts';
import { disposition, ofCheck } from '../../core/model/disposition.ts';
import { checkRecord, failed } from '../support/records.ts';

const lenient = { strict: false };
const strict = { strict: true };

describe('disposition of a check', () => {
  test('a MUST rule failure fails the run, strict or not', () => {
    const r = failed('PAG-SIZE any request');
    assert.equal(disposition(ofCheck(r), lenient), 'fail');
    assert.equal(disposition(ofCheck(r), strict), 'fail');
  });

  test('an advisory finding fails the run only with CONFORMANCE_STRICT=1', () => {
    const r = checkRecord('ADV-SCHEME Basic', 'advisory', { received: 'HTTP 200' });
    assert.equal(disposition(ofCheck(r), lenient), 'advisory');
    assert.equal(disposition(ofCheck(r), strict), 'fail');
  });

  test('a check not exercised fails nothing, strict or not (another check of its rule may exercise it)', () => {
    const r = checkRecord('LIM-CAP limit above 100', 'not exercised', { reason: '7 records' });
    assert.equal(disposition(ofCheck(r), lenient), 'none');
    assert.equal(disposition(ofCheck(r), strict), 'none');
  });

  test('pass, inconclusive and not run are no finding', () => {
    for (const verdict of ['pass', 'inconclusive', 'not run'] as const) {
      assert.equal(disposition(ofCheck(checkRecord('PAG-SIZE a', verdict)), strict), 'none', verdict);
    }
  });

  test('a failure marked known, or one a live entry of the baseline matches, is known; an expired entry excuses nothing', () => {
    const marked = failed('PAG-SIZE a', '6 records', { known: { reason: 'VEN-1', until: '2026-12-31' } });
    assert.equal(disposition(ofCheck(marked), strict), 'known');
    const entry: BaselineEntry = { rule: 'PAG-SIZE', match: '6 records', reason: 'VEN-1', until: '2026-12-31' };
    const r = failed('PAG-SIZE a', '6 records');
    assert.equal(
      disposition(ofCheck(r), { strict: false, baseline: { entries: [entry], today: '2026-12-31' } }),
      'known',
    );
    assert.equal(
      disposition(ofCheck(r), { strict: false, baseline: { entries: [entry], today: '2027-01-01' } }),
      'fail',
    );
    const other = failed('PAG-SIZE a', '5 records');
    assert.equal(
      disposition(ofCheck(other), { strict: false, baseline: { entries: [entry], today: '2026-12-01' } }),
      'fail',
    );
  });
});

describe('disposition of a rule', () => {
  test('a MUST rule not exercised fails the run only with CONFORMANCE_STRICT=1; an advisory one never', () => {
    assert.equal(disposition({ of: 'rule', verdict: 'not exercised', level: 'MUST' }, lenient), 'none');
    assert.equal(disposition({ of: 'rule', verdict: 'not exercised', level: 'MUST' }, strict), 'fail');
    assert.equal(disposition({ of: 'rule', verdict: 'not exercised', level: 'ADVISORY' }, strict), 'none');
  });

  test('a rule whose failures are all known is known; fail and advisory as for a check', () => {
    assert.equal(disposition({ of: 'rule', verdict: 'known', level: 'MUST' }, strict), 'known');
    assert.equal(disposition({ of: 'rule', verdict: 'fail', level: 'MUST' }, lenient), 'fail');
    assert.equal(disposition({ of: 'rule', verdict: 'advisory', level: 'ADVISORY' }, lenient), 'advisory');
    assert.equal(disposition({ of: 'rule', verdict: 'advisory', level: 'ADVISORY' }, strict), 'fail');
  });
});
