import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { EXIT_CODES } from '../../core/model/outputs.ts';
import { isGeneral, type Level, RULES } from '../../core/model/rules.ts';
import type { Cause, Verdict } from '../../core/model/verdict.ts';
import { decideOutcome, type JudgedRule, type RunFacts } from '../../reporters/outcome.ts';
import { writeSetUpReports } from '../../reporters/reports.ts';
import { cleanMatrixRuns, fakeTest, runMatrix } from '../support/matrix-events.ts';
import { checkRecord, failed, resultWith } from '../support/records.ts';

after(cleanMatrixRuns);

const rule = (id: string, verdict: Verdict, level: Level = 'MUST', checks = 1, cause?: Cause): JudgedRule => ({
  id,
  level,
  verdict,
  ...(cause ? { cause } : {}),
  evidence: `${id} evidence`,
  checks,
});

const facts = (rules: JudgedRule[], over: Partial<RunFacts> = {}): RunFacts => ({
  rules,
  status: 'passed',
  globalErrors: [],
  transportFailures: 0,
  strict: false,
  ...over,
});

describe('decideOutcome', () => {
  test('exit codes: 0 conformant, 1 nonconformant, 2 bad configuration, 3 inconclusive', () => {
    assert.deepEqual(EXIT_CODES, { conformant: 0, nonconformant: 1, 'bad configuration': 2, inconclusive: 3 });
  });

  test('every MUST rule that ran passed: conformant, saying what was not exercised, not run, unselected and advisory', () => {
    const o = decideOutcome(
      facts([
        rule('PAG-SIZE', 'pass'),
        rule('LIM-CAP', 'not exercised'),
        rule('AUTH-REVOKED', 'not run', 'MUST', 1, 'needs input'),
        rule('PAG-EMPTY', 'not run', 'MUST', 0, 'not selected'),
        rule('ADV-SCHEME', 'advisory', 'ADVISORY'),
        rule('ADV-UNKNOWN-PATH', 'inconclusive', 'ADVISORY'),
      ]),
    );
    assert.deepEqual(o, {
      result: 'conformant',
      exitCode: 0,
      scope: 'for the 5 selected rule(s)',
      decidedBy: [
        '1 MUST rule(s) passed',
        'not exercised: LIM-CAP (LIM-CAP evidence)',
        'not run for a missing optional input: AUTH-REVOKED',
        'advisory findings: ADV-SCHEME',
        'not selected, not judged: PAG-EMPTY',
      ],
    });
  });

  test('a failed rule decides, before anything inconclusive: the target went away after a failure', () => {
    const rules = [
      rule('PAG-SIZE', 'fail'),
      rule('PAG-TOTAL', 'inconclusive'),
      rule('ADV-SCHEME', 'advisory', 'ADVISORY'),
    ];
    const o = decideOutcome(facts(rules, { status: 'failed', transportFailures: 3 }));
    assert.equal(o.exitCode, 1);
    assert.deepEqual(o.decidedBy, ['PAG-SIZE (MUST) failed: PAG-SIZE evidence']);
  });

  test('CONFORMANCE_STRICT=1: an advisory finding fails the run', () => {
    const rules = [rule('PAG-SIZE', 'pass'), rule('ADV-SCHEME', 'advisory', 'ADVISORY')];
    assert.equal(decideOutcome(facts(rules)).exitCode, 0);
    const strict = decideOutcome(facts(rules, { strict: true }));
    assert.equal(strict.exitCode, 1);
    assert.deepEqual(strict.decidedBy, ['ADV-SCHEME (ADVISORY, CONFORMANCE_STRICT=1) failed: ADV-SCHEME evidence']);
  });

  test('inconclusive: unreachable, stopped answering, budget, changed data, interrupted, nothing ran', () => {
    const cases: Array<[RunFacts, string]> = [
      [
        facts([rule('PAG-SIZE', 'not run', 'MUST', 0)], { globalErrors: ['Target x is unreachable'] }),
        'Target x is unreachable',
      ],
      [
        facts([rule('PAG-SIZE', 'pass')], { transportFailures: 2 }),
        'the target failed to answer 2 request(s) after retries',
      ],
      [
        facts([rule('PAG-SIZE', 'pass'), rule('PAG-TOTAL', 'inconclusive')]),
        'PAG-TOTAL inconclusive: PAG-TOTAL evidence',
      ],
      [
        facts([rule('PAG-SIZE', 'pass')], { status: 'interrupted' }),
        'the run was interrupted before every check ended',
      ],
      [
        facts([rule('PAG-SIZE', 'pass')], { status: 'timedout' }),
        'the run reached its global timeout before every check ended',
      ],
      [
        facts([rule('PAG-SIZE', 'not run', 'MUST', 1, 'needs input'), rule('ADV-SCHEME', 'pass', 'ADVISORY')]),
        'no MUST check ran',
      ],
    ];
    for (const [input, reason] of cases) {
      const o = decideOutcome(input);
      assert.equal(o.result, 'inconclusive', reason);
      assert.equal(o.exitCode, 3);
      assert.deepEqual(o.decidedBy, [reason]);
    }
  });
});

describe('the rule matrix carries the outcome', () => {
  test('conformance.json, conformance.md, the console, and the status returned to Playwright', async () => {
    const ok = await runMatrix(
      [[fakeTest('PAG-SIZE a'), resultWith('passed', checkRecord('PAG-SIZE a', 'pass'))]],
      'passed',
    );
    assert.equal(ok.json.outcome.exitCode, 0);
    assert.equal(ok.returned, 'passed');
    assert.ok(ok.md.includes('Outcome: **conformant** for the 1 selected rule(s) (exit 0).'));
    assert.match(
      ok.console,
      /\nOutcome: conformant for the 1 selected rule\(s\) \(exit 0\): 1 MUST rule\(s\) passed; not selected, not judged: ENV-SCHEMA, /,
    );
    const bad = await runMatrix([[fakeTest('PAG-SIZE a'), resultWith('failed', failed('PAG-SIZE a', '7 records'))]]);
    assert.deepEqual(bad.json.outcome.decidedBy[0], 'PAG-SIZE (MUST) failed: 7 records');
    assert.deepEqual([bad.json.outcome.result, bad.json.outcome.exitCode], ['nonconformant', 1]);
    assert.equal(bad.returned, 'failed');
  });

  test('an unreachable target: one message, no table of rules that did not run, exit 3', async () => {
    const message = 'Target http://127.0.0.1:9 is unreachable, no check was run. GET … failed after 3 attempt(s)';
    const down = await runMatrix([], 'failed', [message]);
    assert.deepEqual(down.json.outcome, { result: 'inconclusive', exitCode: 3, decidedBy: [message] });
    assert.equal(
      down.console,
      `Outcome: inconclusive (exit 3): no check ran. Matrix: ${down.dir}/conformance.md\nReports in ${down.dir}: conformance.md, conformance.json, conformance.html, junit.xml, html/, results.json, allure-results/`,
    );
    assert.equal(down.returned, 'failed');
  });

  test('a config the loader refused: exit 2, the problems by variable name, no rows; the whole set, every count a number', () => {
    const dir = mkdtempSync(join(tmpdir(), 'config-error-'));
    try {
      const problem = 'API_TEST_KEY is not set (the sandbox key every check uses)';
      writeSetUpReports(dir, [problem], { durationSeconds: 0.4 });
      const json = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8'));
      assert.deepEqual(json.outcome, { result: 'bad configuration', exitCode: 2, decidedBy: [problem] });
      assert.equal(json.schemaVersion, 2);
      assert.deepEqual(json.rules, []);
      for (const field of ['requests', 'preflightRequests', 'transportFailures', 'durationSeconds'])
        assert.equal(typeof json[field], 'number', field);
      const md = readFileSync(join(dir, 'conformance.md'), 'utf8');
      assert.ok(md.includes('- API_TEST_KEY is not set'));
      assert.ok(md.includes('0 requests (safe methods only) in 0.4 s'));
      assert.ok(!md.includes('| rule |'), 'no table of rules that did not run');
      const html = readFileSync(join(dir, 'conformance.html'), 'utf8');
      assert.ok(html.includes('0 requests (safe methods only) in 0.4 s'));
      assert.match(html, /<p class="target">Target: not determined/);
      const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
      assert.match(
        junit,
        /<testcase classname="set-up" name="set-up"[^>]*>.*<failure message="API_TEST_KEY is not set/,
      );
      assert.match(junit, /<testsuites [^>]*tests="1" failures="1"/);
      for (const file of ['conformance.json', 'conformance.md', 'conformance.html', 'junit.xml'])
        assert.ok(!/undefined|NaN/.test(readFileSync(join(dir, file), 'utf8')), `${file} says undefined or NaN`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('each rule appears once', () => {
  test('a rule with two advisory checks: one row in conformance.json, conformance.md and the console', async () => {
    const advisory = (title: string, received: string) =>
      resultWith('passed', checkRecord(title, 'advisory', { expected: '401', received }));
    const {
      json,
      md,
      console: printed,
    } = await runMatrix(
      [
        [fakeTest('ADV-SCHEME Basic credentials'), advisory('ADV-SCHEME Basic credentials', 'HTTP 200 to Basic')],
        [fakeTest('ADV-SCHEME a bare key'), advisory('ADV-SCHEME a bare key', 'HTTP 200 to a bare key')],
        [fakeTest('PAG-SIZE a'), resultWith('passed', checkRecord('PAG-SIZE a', 'pass'))],
      ],
      'passed',
    );
    // A general rule (FLT-FIELD) has a row only where a collection reports it.
    const ids = RULES.filter((r) => !isGeneral(r.id)).map((r) => r.id);
    assert.deepEqual(
      json.rules.map((r) => r.id),
      ids,
    );
    const rowsOf = (text: string, id: string) => text.split('\n').filter((l) => new RegExp(`^\\W*${id}\\b`).test(l));
    for (const id of ids) {
      assert.equal(rowsOf(md, id).length, 1, `${id} in conformance.md`);
      assert.equal(rowsOf(printed, id).length, 1, `${id} in the console`);
    }
    const adv = json.rules.find((r) => r.id === 'ADV-SCHEME');
    assert.deepEqual([adv?.verdict, adv?.checks], ['advisory', 2]);
    assert.deepEqual(
      json.outcome.decidedBy.filter((l) => l.includes('ADV-SCHEME')),
      ['advisory findings: ADV-SCHEME'],
    );
  });
});
