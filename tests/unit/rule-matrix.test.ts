import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { TestCase, TestResult } from '@playwright/test/reporter';
import { isGeneral, RULES } from '../../core/model/rules.ts';

/** The rows of a run of payments alone: a general rule (FLT-FIELD) has none, its instance reports. */
const ROWS = RULES.filter((r) => !isGeneral(r.id));

import { registerSecret } from '../../core/model/secrets.ts';
import type { CheckRecord, Verdict } from '../../core/model/verdict.ts';
import { cleanMatrixRuns, fakeTest, row, runMatrix as run, withRun } from '../support/matrix-events.ts';
import { checkRecord, failed, resultWith } from '../support/records.ts';

const KEY = 'sk_live_MatrixCANARYq7Z3xW9vB2n';
registerSecret(KEY);
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

after(cleanMatrixRuns);

/**
 * A check that ended with `verdict`, its record attached as settle attaches it. The reporter reads the record, whatever
 * the test's status (tests/unit/settle.test.ts shows how settle ends each): the status here is only Playwright's.
 */
function check(title: string, verdict: Verdict, extra: Partial<CheckRecord> = {}): [TestCase, TestResult] {
  const record = verdict === 'fail' ? failed(title, extra.received, extra) : checkRecord(title, verdict, extra);
  return [fakeTest(title), resultWith('passed', record)];
}

describe('rule matrix: verdict per rule, read from the records', () => {
  test('all passing checks: pass, "n/n checks passed", requests summed', async () => {
    const { json } = await run([
      check('PAG-SIZE first window', 'pass', { requests: 3 }),
      check('PAG-SIZE second window', 'pass', { requests: 2 }),
    ]);
    assert.deepEqual(row(json, 'PAG-SIZE'), {
      id: 'PAG-SIZE',
      section: '§4.2 r1',
      level: 'MUST',
      verdict: 'pass',
      evidence: '2/2 checks passed',
      checks: 2,
      requests: 5,
      notes: [],
    });
  });

  test('fail > advisory > inconclusive > pass > not exercised > not run', async () => {
    const needs = { cause: 'needs input' as const, reason: 'needs API_REVOKED_KEY' };
    const changed = { cause: 'data changed' as const, reason: 'the data changed while the check ran: total 10 → 11' };
    const { json } = await run([
      // MODE-ISOLATION: every kind, fail wins
      check('MODE-ISOLATION a', 'pass'),
      check('MODE-ISOLATION b', 'not run', needs),
      check('MODE-ISOLATION c', 'inconclusive', changed),
      check('MODE-ISOLATION d', 'advisory', { received: 'HTTP 200 to Basic' }),
      check('MODE-ISOLATION e', 'fail', { received: 'total 236 at offset 230' }),
      check('MODE-ISOLATION f', 'not exercised', { cause: 'data', reason: 'the live listing is empty' }),
      // INP-ROBUST: advisory wins over inconclusive, pass, not run
      check('INP-ROBUST a', 'inconclusive', changed),
      check('INP-ROBUST b', 'advisory', { received: 'HTTP 200 to Basic' }),
      check('INP-ROBUST c', 'pass'),
      check('INP-ROBUST d', 'not run', needs),
      // SRT-FILTER: inconclusive wins over pass, not exercised, not run
      check('SRT-FILTER a', 'pass'),
      check('SRT-FILTER b', 'inconclusive', changed),
      check('SRT-FILTER c', 'not exercised', { cause: 'data', reason: 'no ties' }),
      check('SRT-FILTER d', 'not run', needs),
      // LIM-CAP: not exercised wins over not run only; PAG-SIZE: a pass wins over not exercised, which it notes
      check('LIM-CAP a', 'not run', { cause: 'needs input', reason: 'needs API_LIVE_KEY' }),
      check('LIM-CAP b', 'not exercised', { cause: 'data', reason: '7 records; the cap needs more than 100' }),
      check('PAG-SIZE a', 'pass'),
      check('PAG-SIZE b', 'not exercised', { cause: 'data', reason: 'an empty listing' }),
      // FLT-STATUS: pass wins over not run
      check('FLT-STATUS a', 'not run', needs),
      check('FLT-STATUS b', 'pass'),
      // AUTH-REVOKED: not run with its reason
      check('AUTH-REVOKED revoked key', 'not run', needs),
    ]);
    assert.deepEqual(
      [
        'MODE-ISOLATION',
        'INP-ROBUST',
        'SRT-FILTER',
        'LIM-CAP',
        'PAG-SIZE',
        'FLT-STATUS',
        'AUTH-REVOKED',
        'PAG-EMPTY',
      ].map((id) => [id, row(json, id).verdict, row(json, id).evidence, row(json, id).checks]),
      [
        ['MODE-ISOLATION', 'fail', 'total 236 at offset 230', 6],
        ['INP-ROBUST', 'advisory', 'HTTP 200 to Basic', 4],
        ['SRT-FILTER', 'inconclusive', 'the data changed while the check ran: total 10 → 11', 4],
        ['LIM-CAP', 'not exercised', '7 records; the cap needs more than 100', 2],
        ['PAG-SIZE', 'pass', '1/2 checks passed', 2],
        ['FLT-STATUS', 'pass', '1/2 checks passed', 2],
        ['AUTH-REVOKED', 'not run', 'needs API_REVOKED_KEY', 1],
        ['PAG-EMPTY', 'not run', 'not selected', 0],
      ],
    );
    assert.equal(row(json, 'AUTH-REVOKED').cause, 'needs input');
    assert.deepEqual(row(json, 'PAG-SIZE').notes, ['not exercised: an empty listing']);
    assert.equal(row(json, 'PAG-EMPTY').cause, 'not selected');
  });

  test('the order of results does not change the verdict', async () => {
    const fail = check('PAG-TOTAL a', 'fail');
    const pass = check('PAG-TOTAL b', 'pass');
    const a = (await run([fail, pass])).json;
    const b = (await run([pass, fail])).json;
    assert.equal(row(a, 'PAG-TOTAL').verdict, 'fail');
    assert.deepEqual(row(a, 'PAG-TOTAL'), row(b, 'PAG-TOTAL'));
  });

  test('a check without a record never reached its end: it judged nothing', async () => {
    const { json } = await run(
      [
        [fakeTest('LIM-CAP over the cap'), resultWith('timedOut')],
        [fakeTest('PAG-ECHO echo'), resultWith('interrupted')],
        [
          fakeTest('ENV-SCHEMA pages'),
          resultWith('failed', undefined, ['\u001b[31mError: worker fixture failed\u001b[39m']),
        ],
      ],
      'interrupted',
      [],
      [fakeTest('PAG-SIZE any')],
    );
    assert.deepEqual(
      ['LIM-CAP', 'PAG-ECHO', 'ENV-SCHEMA', 'PAG-SIZE'].map((id) => [
        id,
        row(json, id).verdict,
        row(json, id).evidence,
      ]),
      [
        [
          'LIM-CAP',
          'inconclusive',
          "the check reached its time limit (120 s) before it ended: raise CONFORMANCE_CHECK_TIMEOUT_MS (the limit is derived from API_TIMEOUT_MS, the pace and the target's answer time)",
        ],
        ['PAG-ECHO', 'not run', 'the run was stopped before it ended'],
        ['ENV-SCHEMA', 'inconclusive', 'the check could not start: Error: worker fixture failed'],
        ['PAG-SIZE', 'not run', 'the run was interrupted before it started'],
      ],
    );
  });

  test('a retried check counts once, by its last attempt', async () => {
    const { json } = await run([
      [fakeTest('PAG-SIZE a', 'one'), resultWith('failed', failed('PAG-SIZE a', 'x', { requests: 2 }))],
      [fakeTest('PAG-SIZE a', 'one'), resultWith('passed', checkRecord('PAG-SIZE a', 'pass', { requests: 3 }))],
      check('PAG-SIZE b', 'pass'),
    ]);
    assert.deepEqual(
      [row(json, 'PAG-SIZE').verdict, row(json, 'PAG-SIZE').checks, row(json, 'PAG-SIZE').requests],
      ['pass', 2, 3],
    );
  });

  test('evidence: the received line of a finding, else the reason; capped at 200', async () => {
    const { json } = await run([
      check('PAG-DEFAULT a', 'fail', { received: 'y'.repeat(300) }),
      check('PAG-ECHO a', 'inconclusive', { cause: 'budget', reason: 'request budget exhausted' }),
    ]);
    assert.equal(row(json, 'PAG-DEFAULT').evidence, `${'y'.repeat(200)}…`);
    assert.equal(row(json, 'PAG-ECHO').evidence, 'request budget exhausted');
  });

  test('titles without a rule id are ignored (no row, no requests)', async () => {
    const { json } = await run([[fakeTest('helper without id'), resultWith('failed', undefined, ['x'])]]);
    assert.equal(json.requests, 0);
    assert.deepEqual(json.checks, []);
    assert.ok(json.rules.every((r) => r.verdict !== 'fail'));
  });

  test('every rule is judged by its checks, CFG-KEYS too: without a selected check, not run', async () => {
    const { json } = await run([check('CFG-KEYS the configured keys', 'pass')]);
    assert.equal(row(json, 'CFG-KEYS').verdict, 'pass');
    assert.equal(row((await run([])).json, 'CFG-KEYS').verdict, 'not run');
  });

  test("a rule's notes are its checks' notes, once each", async () => {
    const capped = 'merchant msb_1: read 2000 of 5000 records (API_MAX_RECORDS=2000)';
    const { json, md } = await run([
      check('PAG-TOTAL a', 'pass', { notes: [capped] }),
      check('PAG-TOTAL b', 'pass', { notes: [capped, 'the live listing is empty'] }),
    ]);
    assert.deepEqual(row(json, 'PAG-TOTAL').notes, [capped, 'the live listing is empty']);
    assert.ok(md.includes(`| 2/2 checks passed [${capped}; the live listing is empty] |`));
  });
});

describe('rule matrix: files and console', () => {
  test('conformance.json: one row per rule in catalogue order, every record, counts, totals', async () => {
    const preflight = { decision: 'go' as const, problems: [], notes: [], requests: 1 };
    const { json } = await withRun({ preflight }, () =>
      run([
        check('PAG-TOTAL a', 'fail', { requests: 7 }),
        check('PAG-SIZE a', 'pass', { requests: 3 }),
        check('ADV-SCHEME a', 'advisory'),
      ]),
    );
    assert.equal(json.status, 'failed');
    assert.equal(typeof json.durationSeconds, 'number');
    assert.ok(json.durationSeconds >= 0 && json.durationSeconds < 60);
    assert.equal(json.requests, 3 + 7 + 1, 'rule requests + the preflight');
    assert.equal(json.preflightRequests, 1);
    assert.equal(json.requestMethods, undefined, 'no request log, no claim about methods');
    assert.deepEqual(
      json.rules.map((r) => r.id),
      ROWS.map((r) => r.id),
    );
    assert.deepEqual(
      json.checks.map((c) => [c.rule, c.verdict]),
      [
        ['PAG-SIZE', 'pass'],
        ['PAG-TOTAL', 'fail'],
        ['ADV-SCHEME', 'advisory'],
      ],
    );
    assert.deepEqual(json.verdicts, {
      fail: 1,
      known: 0,
      advisory: 1,
      inconclusive: 0,
      'not exercised': 0,
      pass: 1,
      'not run': ROWS.length - 3,
    });
  });

  test("the run's seed and the layout version: in conformance.json and in both headers", async () => {
    const { json, md, console: printed } = await withRun({ seed: 123456789 }, () => run([check('PAG-SIZE a', 'pass')]));
    assert.equal(json.schemaVersion, 2);
    assert.equal(json.seed, 123456789);
    assert.ok(md.includes('; seed 123456789 — rerun with FC_SEED=123456789.\n'));
    assert.ok(printed.includes('\nRule matrix (seed 123456789 — rerun with FC_SEED=123456789, depth standard)\n'));
    assert.equal((await run([])).json.seed, null, 'no run context, no seed: null, not a made-up one');
  });

  test('conformance.md: a table row per rule, pipes escaped', async () => {
    const { md, json } = await run([
      check('PAG-SIZE a', 'pass', { requests: 2 }),
      check('PAG-TOTAL a', 'fail', { received: 'a|b' }),
    ]);
    const lines = md.split('\n');
    assert.deepEqual(lines.slice(0, 5), [
      '# Conformance rule matrix',
      '',
      'Outcome: **nonconformant** for the 2 selected rule(s) (exit 1).',
      '',
      '- PAG-TOTAL (MUST) failed: a\\|b',
    ]);
    assert.match(lines[5] ?? '', /^- not selected, not judged: ENV-SCHEMA, PAG-ECHO, /);
    assert.deepEqual(lines.slice(6, 13), [
      '',
      'Target: not determined (the run stopped before its configuration named one).',
      '',
      `Run status: failed; depth standard; 2 requests (safe methods only) in ${json.durationSeconds} s; no seed.`,
      '',
      '| rule | section | level | verdict | requests | evidence |',
      '|---|---|---|---|---|---|',
    ]);
    assert.ok(lines.includes('| PAG-SIZE | §4.2 r1 | MUST | pass | 2 | 1/1 checks passed |'));
    assert.ok(lines.includes('| PAG-TOTAL | §4.2 r2 | MUST | fail | 0 | a\\|b |'));
    assert.ok(lines.includes('| ADV-UNKNOWN-MERCHANT | §7 | ADVISORY | not run (not selected) | 0 | not selected |'));
    assert.equal(lines.filter((l) => /^\| [A-Z]+-/.test(l)).length, ROWS.length);
  });

  test('console: the table and the summary line', async () => {
    const { console: printed, dir } = await run([check('PAG-SIZE a', 'pass', { requests: 2 })], 'passed');
    assert.match(printed, /\n {2}PAG-SIZE +MUST +pass +2 {2}1\/1 checks passed\n/);
    assert.match(
      printed,
      new RegExp(
        `Requests sent: 2 \\(safe methods only\\) in \\d+\\.\\d s\\. Rules: 1 pass, ${ROWS.length - 1} not run\\. Matrix: `,
      ),
    );
    assert.ok(printed.includes(`${dir}/conformance.md`));
  });

  test('no key, Base64 key or key-shaped string reaches the files or the console', async () => {
    const {
      rawJson,
      md,
      console: printed,
    } = await run([
      check('PAG-TOTAL a', 'fail', { received: `body echoed ${KEY} and ${b64(KEY)} and sk_test_derivedKEY123` }),
      check('ADV-SCHEME b', 'advisory', { received: b64(`${KEY}:`) }),
      check('SRT-AMOUNT c', 'inconclusive', { cause: 'crash', reason: `saw ${KEY}` }),
      check(`AUTH-INVALID with ${KEY}`, 'pass'),
      check('AUTH-REVOKED d', 'not run', { cause: 'needs input', reason: `skip ${KEY}`, notes: [`note ${KEY}`] }),
    ]);
    for (const [name, text] of [
      ['conformance.json', rawJson],
      ['conformance.md', md],
      ['console', printed],
    ] as const) {
      assert.ok(!text.includes(KEY), `${name} has the key`);
      assert.ok(!text.includes(b64(KEY)), `${name} has the Base64 key`);
      assert.ok(!text.includes(b64(`${KEY}:`)), `${name} has the Basic-auth form`);
      assert.ok(!/sk_(test|live)_/i.test(text), `${name} has something key-shaped`);
      assert.ok(text.includes('[REDACTED]'), `${name} shows the redaction`);
    }
  });
});
