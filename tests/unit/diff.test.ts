/** `payment-api-conformance diff`: what changed between two runs, read by field from their conformance.json. */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { diffMarkdown, diffRuns, diffText, main } from '../../commands/diff.ts';
import type { CheckRecord } from '../../core/model/verdict.ts';
import { type RunInfo, type Summary, summarize } from '../../reporters/summary.ts';
import { checkRecord, failed, runInfo } from '../support/records.ts';

const info = runInfo;
const run = (checks: CheckRecord[], over: Partial<RunInfo> = {}) => summarize(checks, info(over));

const clean = run([
  checkRecord('PAG-SIZE a', 'pass'),
  failed('PAG-TOTAL a', 'total 3'),
  checkRecord('LIM-CAP a', 'pass'),
  checkRecord('AUTH-REVOKED a', 'pass'),
  checkRecord('SRT-AMOUNT a', 'not exercised', { cause: 'data', reason: 'one amount' }),
]);
const later = run(
  [
    failed('PAG-SIZE a', '6 records'),
    failed('PAG-TOTAL a', 'total 4'),
    checkRecord('LIM-CAP a', 'pass'),
    checkRecord('AUTH-REVOKED a', 'not run', { cause: 'needs input', reason: 'needs API_REVOKED_KEY' }),
    checkRecord('SRT-AMOUNT a', 'pass'),
    checkRecord('ADV-SCHEME a', 'advisory', { received: 'HTTP 200' }),
  ],
  { seed: 8 },
);

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('diff of two runs', () => {
  test('rules newly failing and passing, evidence, not exercised, not run, seeds', () => {
    const d = diffRuns(clean, later);
    assert.deepEqual(
      d.newlyFailing.map((c) => [c.rule, c.a, c.b]),
      [
        ['PAG-SIZE', 'pass', 'fail'],
        ['ADV-SCHEME', 'not run', 'advisory'],
      ],
    );
    assert.deepEqual(d.mustRegressions, ['PAG-SIZE']);
    assert.deepEqual(
      d.evidence.map((c) => [c.check, c.a, c.b]),
      [['PAG-TOTAL a', 'fail: total 3', 'fail: total 4']],
    );
    assert.deepEqual(
      d.notExercised.map((c) => [c.check, c.a, c.b]),
      [['SRT-AMOUNT a', 'not exercised: one amount', 'pass']],
    );
    assert.deepEqual(
      d.notRun.map((c) => [c.check, c.b]),
      [['AUTH-REVOKED a', 'not run: needs API_REVOKED_KEY']],
    );
    assert.deepEqual(d.onlyInB, ['ADV-SCHEME a']);
    assert.deepEqual([d.a.seed, d.b.seed], [7, 8]);
    const back = diffRuns(later, clean);
    assert.deepEqual(
      back.newlyPassing.map((c) => c.rule),
      ['PAG-SIZE'],
    );
    assert.deepEqual(back.mustRegressions, []);
    const text = diffText(d);
    assert.match(text, /Rules newly failing in B \(2\):\n {2}PAG-SIZE \(MUST\): pass → fail — 6 records/);
    assert.match(text, /B fails 1 MUST rule\(s\) that A did not: PAG-SIZE \(exit 1\)$/);
    assert.match(diffMarkdown(d), /^\| PAG-SIZE \| MUST \| pass \| fail \| 6 records \|$/m);
  });

  test('a run from before the general ids pairs with one after: FLT-STATUS refunds: … is FLT-FIELD refunds: …', () => {
    const grid = (checks: CheckRecord[]) => run(checks);
    const title = (id: string) => `${id} refunds: filter[reason]=V lists only V records`;
    const before = grid([
      checkRecord('FLT-STATUS a', 'pass'),
      failed(title('FLT-STATUS'), '3 of 9', { collection: 'refunds' }),
    ]);
    const after = grid([
      checkRecord('FLT-STATUS a', 'pass'),
      failed(title('FLT-FIELD'), '3 of 9', { collection: 'refunds' }),
    ]);
    const d = diffRuns(before, after);
    assert.deepEqual(d.mustRegressions, [], 'the refunds filter failed before too, under FLT-STATUS');
    assert.deepEqual([d.onlyInA, d.onlyInB], [[], []], 'each check paired by its title');
    assert.deepEqual(d.newlyFailing, []);
    const fixed = diffRuns(
      before,
      grid([checkRecord('FLT-STATUS a', 'pass'), checkRecord(title('FLT-FIELD'), 'pass', { collection: 'refunds' })]),
    );
    assert.deepEqual(
      fixed.newlyPassing.map((c) => c.rule),
      ['FLT-FIELD'],
    );
  });

  test('a known deviation in B is no regression; two equal runs: nothing changed', () => {
    const known = summarize([failed('PAG-SIZE a', '6 records'), failed('PAG-TOTAL a', 'total 3')], {
      ...info(),
      baseline: {
        file: 'b.json',
        date: '2026-11-24',
        entries: [{ rule: 'PAG-SIZE', match: 'PAG-SIZE a', reason: 'r', until: '2026-12-31' }],
      },
    });
    const d = diffRuns(clean, known);
    assert.deepEqual(d.mustRegressions, []);
    assert.deepEqual(d.otherRuleChanges.find((c) => c.rule === 'PAG-SIZE')?.b, 'known');
    assert.match(
      diffText(diffRuns(clean, clean)),
      /No rule or check changed\.\n\nB fails no MUST rule that A did not \(exit 0\)/,
    );
  });

  test('the command: files or folders in, exit 1 on a new MUST failure, 0 otherwise, 2 on unreadable input', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'diff-'));
    dirs.push(dir);
    const put = (name: string, s: Summary | string) => {
      mkdirSync(join(dir, name), { recursive: true });
      writeFileSync(join(dir, name, 'conformance.json'), typeof s === 'string' ? s : JSON.stringify(s));
      return join(dir, name);
    };
    const [a, b] = [put('a', clean), put('b', later)];
    const log = console.log;
    console.log = () => {};
    try {
      assert.equal(await main([a, b, '--markdown', join(dir, 'diff.md')]), 1);
      assert.match(readFileSync(join(dir, 'diff.md'), 'utf8'), /^# Conformance: what changed from A to B/);
      assert.equal(await main([join(a, 'conformance.json'), a]), 0);
      assert.equal(await main([b, a]), 0);
      assert.equal(await main([a, put('broken', '{')]), 2);
      assert.equal(await main([a, join(dir, 'nowhere')]), 2);
      assert.equal(await main([a]), 2);
    } finally {
      console.log = log;
    }
  });
});
