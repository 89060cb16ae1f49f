import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isRuleId, RULES, rule, ruleIdOfTitle } from '../../core/model/rules.ts';

describe('RULES itself', () => {
  test('ids are unique, upper-case with hyphens; levels MUST or ADVISORY; sections cite §', () => {
    const ids = RULES.map((r) => r.id);
    assert.equal(new Set(ids).size, ids.length);
    for (const r of RULES) {
      assert.match(r.id, /^[A-Z]+(?:-[A-Z]+)+$/);
      assert.ok(r.level === 'MUST' || r.level === 'ADVISORY', `${r.id} level ${r.level}`);
      assert.match(r.section, /^§\d/);
      assert.ok(r.requirement.length > 10);
    }
  });

  test('ADVISORY rules are the ADV- rules, and include ADV-SCHEME, ADV-UNKNOWN-MERCHANT and ADV-UNKNOWN-PATH', () => {
    const advisory = RULES.filter((r) => r.level === 'ADVISORY').map((r) => r.id);
    assert.deepEqual(
      advisory,
      RULES.filter((r) => r.id.startsWith('ADV-')).map((r) => r.id),
    );
    for (const id of ['ADV-SCHEME', 'ADV-UNKNOWN-MERCHANT', 'ADV-UNKNOWN-PATH'])
      assert.ok(advisory.includes(id as never), id);
  });
});

describe('rule, isRuleId, ruleIdOfTitle', () => {
  test('rule(id) returns the catalogue entry', () => {
    assert.deepEqual(rule('PAG-SIZE'), {
      id: 'PAG-SIZE',
      section: '§4.2 r1',
      level: 'MUST',
      concurrent: { page: 'any' },
      requirement: '`data.length` = max(0, min(limit, total - offset))',
    });
    for (const r of RULES) assert.equal(rule(r.id), r);
  });

  test('rule() of an unknown id throws', () => {
    assert.throws(() => rule('NOPE-RULE' as never), { message: 'unknown rule id NOPE-RULE' });
  });

  test('isRuleId', () => {
    assert.equal(isRuleId('PAG-SIZE'), true);
    assert.equal(isRuleId('pag-size'), false);
    assert.equal(isRuleId('PAG-SIZ'), false);
    assert.equal(isRuleId(''), false);
  });

  test('ruleIdOfTitle: the first word when it is a rule id', () => {
    assert.equal(ruleIdOfTitle('PAG-SIZE data.length = max(0, min(limit, total - offset))'), 'PAG-SIZE');
    assert.equal(ruleIdOfTitle('ADV-UNKNOWN-MERCHANT valid key on an unknown merchant'), 'ADV-UNKNOWN-MERCHANT');
    assert.equal(ruleIdOfTitle('MODE-TEST-SANDBOX\ttab separated'), 'MODE-TEST-SANDBOX');
    assert.equal(ruleIdOfTitle('CFG-KEYS'), 'CFG-KEYS');
    assert.equal(ruleIdOfTitle('PAG-SIZEX data'), undefined);
    assert.equal(ruleIdOfTitle('PAG-SIZE: data'), undefined);
    assert.equal(ruleIdOfTitle('checks PAG-SIZE later in the title'), undefined);
    assert.equal(ruleIdOfTitle('pag-size lower case'), undefined);
    assert.equal(ruleIdOfTitle(''), undefined);
  });
});
