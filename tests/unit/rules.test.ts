import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { isRuleId, RULES, rule, ruleIdOfTitle } from '../../fixtures/rules.ts';

const SPEC = fileURLToPath(new URL('../../../shared/spec/rules.md', import.meta.url));
const specMissing = existsSync(SPEC) ? false : `${SPEC} is not present in this checkout`;

interface Row {
  id: string;
  section: string;
  requirement: string;
  level: string;
}

/** The rows of the rule table in rules.md (`| id | section | requirement | level |`). */
function specRows(): Row[] {
  const lines = readFileSync(SPEC, 'utf8').split('\n');
  const header = lines.findIndex((l) => /^\|\s*id\s*\|\s*section\s*\|\s*requirement\s*\|\s*level\s*\|\s*$/.test(l));
  assert.ok(header >= 0, 'rules.md has no `| id | section | requirement | level |` table');
  assert.match(lines[header + 1] ?? '', /^\|(\s*:?-+:?\s*\|){4}\s*$/, 'table separator row');
  const rows: Row[] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const cells = line
      .replace(/^\|/, '')
      .replace(/\|\s*$/, '')
      .split(/(?<!\\)\|/)
      .map((c) => c.trim().replace(/\\\|/g, '|'));
    assert.equal(cells.length, 4, `row with ${cells.length} cells: ${line}`);
    const [id, section, requirement, level] = cells as [string, string, string, string];
    rows.push({ id, section, requirement, level });
  }
  return rows;
}

describe('RULES mirrors ../shared/spec/rules.md', () => {
  test('same ids in the same order', { skip: specMissing }, () => {
    assert.deepEqual(
      RULES.map((r) => r.id),
      specRows().map((r) => r.id),
    );
  });

  test('same section, level and requirement text for every rule', { skip: specMissing }, () => {
    const spec = specRows();
    assert.ok(spec.length >= 28, `rules.md lists ${spec.length} rules`);
    for (const row of spec) {
      const mine = RULES.find((r) => r.id === row.id);
      assert.ok(mine, `${row.id} is missing from RULES`);
      assert.equal(mine.section, row.section, `${row.id} section`);
      assert.equal(mine.level, row.level, `${row.id} level`);
      assert.equal(mine.requirement, row.requirement, `${row.id} requirement`);
    }
    assert.deepEqual(
      RULES.map((r) => ({ id: r.id, section: r.section, requirement: r.requirement, level: r.level })),
      spec,
    );
  });

  test('a few rows spelled out (the parser itself is checked)', { skip: specMissing }, () => {
    const spec = specRows();
    assert.deepEqual(spec[0], {
      id: 'ENV-SCHEMA',
      section: '§2',
      level: 'MUST',
      requirement:
        'a 200 listing matches the envelope: `success` true, `message` string, `data` array, `offset`/`limit`/`total` non-negative integers',
    });
    assert.deepEqual(
      spec.find((r) => r.id === 'ADV-SCHEME'),
      {
        id: 'ADV-SCHEME',
        section: '§5.1',
        level: 'ADVISORY',
        requirement: '`Basic <key>` or a bare key is refused with 401',
      },
    );
  });
});

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

  test('ADVISORY rules are the ADV- rules, and include ADV-SCHEME and ADV-UNKNOWN-MERCHANT', () => {
    const advisory = RULES.filter((r) => r.level === 'ADVISORY').map((r) => r.id);
    assert.deepEqual(
      advisory,
      RULES.filter((r) => r.id.startsWith('ADV-')).map((r) => r.id),
    );
    for (const id of ['ADV-SCHEME', 'ADV-UNKNOWN-MERCHANT']) assert.ok(advisory.includes(id as never), id);
  });
});

describe('rule, isRuleId, ruleIdOfTitle', () => {
  test('rule(id) returns the catalogue entry', () => {
    assert.deepEqual(rule('LIM-CAP'), {
      id: 'LIM-CAP',
      section: '§8',
      level: 'MUST',
      requirement: '`limit` > 100 never yields more than 100 records: a 4xx, or `limit` echoed as 100',
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
