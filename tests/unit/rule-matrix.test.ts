import assert from 'node:assert/strict';
import { after, beforeEach, describe, test } from 'node:test';
import { RULES } from '../../core/model/rules.ts';
import { registerSecret } from '../../core/model/secrets.ts';
import { cleanMatrixRuns, fakeResult, fakeTest, requests, row, runMatrix as run } from '../support/matrix-events.ts';

const KEY = 'sk_live_MatrixCANARYq7Z3xW9vB2n';
registerSecret(KEY);
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

after(cleanMatrixRuns);
beforeEach(() => {
  delete process.env.CONFORMANCE_PROBE_REQUESTS;
  delete process.env.FC_SEED;
});

const FAIL_MSG = [
  'PAG-TOTAL violated (§4.2 r2): `total` = number of matching records',
  '  Expected: total 237 on every page',
  '  Received: total 236 at offset 230',
  'Reproduce with:',
  "  curl -sS 'http://127.0.0.1:3417/x'",
].join('\n');

describe('rule matrix: verdict per rule', () => {
  test('all passing checks: pass, "n/n checks passed", requests summed', async () => {
    const { json } = await run([
      [fakeTest('PAG-SIZE first window'), fakeResult('passed', { annotations: [requests(3)] })],
      [fakeTest('PAG-SIZE second window'), fakeResult('passed', { annotations: [requests(2)] })],
    ]);
    assert.deepEqual(row(json, 'PAG-SIZE'), {
      id: 'PAG-SIZE',
      section: '§4.2 r1',
      level: 'MUST',
      verdict: 'pass',
      evidence: '2/2 checks passed',
      checks: 2,
      requests: 5,
    });
  });

  test('a single passing check: its title (without the id) is not the evidence, the count is', async () => {
    const { json } = await run([[fakeTest('SRT-AMOUNT ascending'), fakeResult('passed')]]);
    assert.equal(row(json, 'SRT-AMOUNT').evidence, '1/1 checks passed');
  });

  test('fail > advisory > inconclusive > pass > skipped > not run', async () => {
    const adv = { type: 'advisory', description: 'ADV-SCHEME violated (§5.1): …\n  Received: HTTP 200 to Basic' };
    const inc = { type: 'inconclusive', description: 'the data changed while the check ran: total 10 → 11' };
    const skip = { type: 'skip', description: 'needs API_REVOKED_KEY' };
    const { json } = await run([
      // MODE-ISOLATION: every kind, fail wins
      [fakeTest('MODE-ISOLATION a'), fakeResult('passed')],
      [fakeTest('MODE-ISOLATION b'), fakeResult('skipped', { annotations: [skip] })],
      [fakeTest('MODE-ISOLATION c'), fakeResult('skipped', { annotations: [inc] })],
      [fakeTest('MODE-ISOLATION d'), fakeResult('passed', { annotations: [adv] })],
      [fakeTest('MODE-ISOLATION e'), fakeResult('failed', { errors: [FAIL_MSG] })],
      // INP-ROBUST: advisory wins over inconclusive, pass, skipped
      [fakeTest('INP-ROBUST a'), fakeResult('skipped', { annotations: [inc] })],
      [fakeTest('INP-ROBUST b'), fakeResult('passed', { annotations: [adv] })],
      [fakeTest('INP-ROBUST c'), fakeResult('passed')],
      [fakeTest('INP-ROBUST d'), fakeResult('skipped')],
      // SRT-FILTER: inconclusive wins over pass, skipped
      [fakeTest('SRT-FILTER a'), fakeResult('passed')],
      [fakeTest('SRT-FILTER b'), fakeResult('skipped', { annotations: [inc] })],
      [fakeTest('SRT-FILTER c'), fakeResult('skipped', { annotations: [skip] })],
      // FLT-STATUS: pass wins over skipped
      [fakeTest('FLT-STATUS a'), fakeResult('skipped', { annotations: [skip] })],
      [fakeTest('FLT-STATUS b'), fakeResult('passed')],
      // AUTH-REVOKED: skipped with its reason
      [fakeTest('AUTH-REVOKED revoked key'), fakeResult('skipped', { annotations: [skip] })],
      // AUTH-FORBIDDEN: skipped without a reason
      [fakeTest('AUTH-FORBIDDEN restricted key'), fakeResult('skipped')],
    ]);
    assert.deepEqual(
      ['MODE-ISOLATION', 'INP-ROBUST', 'SRT-FILTER', 'FLT-STATUS', 'AUTH-REVOKED', 'AUTH-FORBIDDEN', 'PAG-EMPTY'].map(
        (id) => [id, row(json, id).verdict, row(json, id).evidence, row(json, id).checks],
      ),
      [
        ['MODE-ISOLATION', 'fail', 'Received: total 236 at offset 230', 5],
        ['INP-ROBUST', 'advisory', 'Received: HTTP 200 to Basic', 4],
        ['SRT-FILTER', 'inconclusive', 'the data changed while the check ran: total 10 → 11', 3],
        ['FLT-STATUS', 'pass', '1/2 checks passed', 2],
        ['AUTH-REVOKED', 'skipped', 'needs API_REVOKED_KEY', 1],
        ['AUTH-FORBIDDEN', 'skipped', 'skipped', 1],
        ['PAG-EMPTY', 'not run', 'no check selected', 0],
      ],
    );
  });

  test('the order of results does not change the verdict', async () => {
    const fail = fakeResult('failed', { errors: [FAIL_MSG] });
    const pass = fakeResult('passed');
    const a = (
      await run([
        [fakeTest('PAG-TOTAL a'), fail],
        [fakeTest('PAG-TOTAL b'), pass],
      ])
    ).json;
    const b = (
      await run([
        [fakeTest('PAG-TOTAL b'), pass],
        [fakeTest('PAG-TOTAL a'), fail],
      ])
    ).json;
    assert.equal(row(a, 'PAG-TOTAL').verdict, 'fail');
    assert.deepEqual(row(a, 'PAG-TOTAL'), row(b, 'PAG-TOTAL'));
  });

  test('a check that did not end (timed out, interrupted) or whose target gave out judged nothing: inconclusive', async () => {
    const gone = 'TransportError: GET http://127.0.0.1:9/x failed after 3 attempt(s): no answer before API_TIMEOUT_MS';
    const { json } = await run([
      [fakeTest('LIM-CAP over the cap'), fakeResult('timedOut')],
      [fakeTest('PAG-ECHO echo'), fakeResult('interrupted')],
      [fakeTest('ENV-SCHEMA pages'), fakeResult('failed', { errors: [`\u001b[31m${gone}\u001b[39m\n  at x`] })],
      [
        fakeTest('PAG-SIZE any'),
        fakeResult('skipped', {
          annotations: [{ type: 'skip', description: 'not checked: the target stopped answering' }],
        }),
      ],
      [
        fakeTest('SRT-AMOUNT crash'),
        fakeResult('failed', { errors: ["TypeError: Cannot read properties of undefined (reading 'x')"] }),
      ],
    ]);
    assert.deepEqual(
      ['LIM-CAP', 'PAG-ECHO', 'ENV-SCHEMA', 'PAG-SIZE', 'SRT-AMOUNT'].map((id) => [
        id,
        row(json, id).verdict,
        row(json, id).evidence,
      ]),
      [
        ['LIM-CAP', 'inconclusive', 'timedOut before it ended'],
        ['PAG-ECHO', 'inconclusive', 'interrupted before it ended'],
        ['ENV-SCHEMA', 'inconclusive', gone],
        ['PAG-SIZE', 'inconclusive', 'not checked: the target stopped answering'],
        // A crash of a check is not the target's doing, but it is not a pass either: it fails, visibly.
        ['SRT-AMOUNT', 'fail', "TypeError: Cannot read properties of undefined (reading 'x')"],
      ],
    );
  });

  test('a retried check counts once, by its last attempt', async () => {
    const { json } = await run([
      [fakeTest('PAG-SIZE a', [], 'one'), fakeResult('failed', { errors: [FAIL_MSG], annotations: [requests(2)] })],
      [fakeTest('PAG-SIZE a', [], 'one'), fakeResult('passed', { annotations: [requests(3)] })],
      [fakeTest('PAG-SIZE b', [], 'two'), fakeResult('passed')],
    ]);
    assert.deepEqual([row(json, 'PAG-SIZE').verdict, row(json, 'PAG-SIZE').checks], ['pass', 2]);
  });

  test('failure evidence: the Received line, else the first line; ANSI stripped; capped at 200', async () => {
    const { json } = await run([
      [
        fakeTest('ENV-SCHEMA a'),
        fakeResult('failed', { errors: ['\u001b[31mError: expect(received).toBe(expected)\u001b[39m\nmore'] }),
      ],
      [fakeTest('PAG-DEFAULT a'), fakeResult('failed', { errors: [`first\n  Received: ${'y'.repeat(300)}`] })],
      [fakeTest('PAG-ECHO a'), fakeResult('failed', { errors: ['one', 'two\n  Received: from the second error'] })],
    ]);
    assert.equal(row(json, 'ENV-SCHEMA').evidence, 'Error: expect(received).toBe(expected)');
    assert.equal(row(json, 'PAG-DEFAULT').evidence, `Received: ${'y'.repeat(190)}…`);
    assert.equal(row(json, 'PAG-ECHO').evidence, 'Received: from the second error');
  });

  test('titles without a rule id are ignored (no row, no requests)', async () => {
    const { json } = await run([
      [fakeTest('helper without id'), fakeResult('failed', { errors: ['x'], annotations: [requests(9)] })],
    ]);
    assert.equal(json.requests, 0);
    assert.ok(json.rules.every((r) => r.verdict !== 'fail'));
  });

  test('CFG-KEYS with no check: pass (validated before any request), unless the run was interrupted', async () => {
    const ok = (await run([])).json;
    assert.equal(row(ok, 'CFG-KEYS').verdict, 'pass');
    assert.equal(row(ok, 'CFG-KEYS').evidence, 'configured keys validated before any request');
    const interrupted = (await run([], 'interrupted')).json;
    assert.equal(row(interrupted, 'CFG-KEYS').verdict, 'not run');
  });

  test('requests are counted once when Playwright puts the same annotations on the test case and the result', async () => {
    const notes = [requests(3)];
    const { json } = await run([[fakeTest('PAG-SIZE a', [...notes]), fakeResult('passed', { annotations: notes })]]);
    assert.equal(row(json, 'PAG-SIZE').requests, 3);
    assert.equal(json.requests, 3);
  });
});

describe('rule matrix: files and console', () => {
  test('conformance.json: one row per rule in catalogue order, counts, totals, GET only', async () => {
    process.env.CONFORMANCE_PROBE_REQUESTS = '1';
    const { json } = await run(
      [
        [fakeTest('PAG-SIZE a'), fakeResult('passed', { annotations: [requests(3)] })],
        [fakeTest('PAG-TOTAL a'), fakeResult('failed', { errors: [FAIL_MSG], annotations: [requests(7)] })],
        [fakeTest('ADV-SCHEME a'), fakeResult('passed', { annotations: [{ type: 'advisory', description: 'x' }] })],
      ],
      'failed',
    );
    assert.equal(json.status, 'failed');
    assert.equal(typeof json.durationSeconds, 'number');
    assert.ok(json.durationSeconds >= 0 && json.durationSeconds < 60);
    assert.equal(json.requests, 3 + 7 + 1, 'rule requests + the reachability probe');
    assert.deepEqual(json.requestMethods, ['GET']);
    assert.deepEqual(
      json.rules.map((r) => r.id),
      RULES.map((r) => r.id),
    );
    assert.deepEqual(json.verdicts, {
      fail: 1,
      advisory: 1,
      inconclusive: 0,
      pass: 2, // PAG-SIZE and CFG-KEYS
      skipped: 0,
      'not run': RULES.length - 4,
    });
  });

  test("the run's seed and the layout version: in conformance.json and in both headers", async () => {
    process.env.FC_SEED = '123456789';
    const { json, md, console: printed } = await run([[fakeTest('PAG-SIZE a'), fakeResult('passed')]]);
    assert.equal(json.schemaVersion, 1);
    assert.equal(json.seed, 123456789);
    assert.ok(md.includes('; seed 123456789 — rerun with FC_SEED=123456789.\n'));
    assert.ok(printed.includes('\nRule matrix (seed 123456789 — rerun with FC_SEED=123456789)\n'));
    delete process.env.FC_SEED;
    assert.equal((await run([])).json.seed, null, 'no seed: null, not a made-up one');
  });

  test('conformance.md: a table row per rule, pipes escaped', async () => {
    const { md, json } = await run([
      [fakeTest('PAG-SIZE a'), fakeResult('passed', { annotations: [requests(2)] })],
      [fakeTest('PAG-TOTAL a'), fakeResult('failed', { errors: ['  Received: a|b'] })],
    ]);
    const lines = md.split('\n');
    assert.deepEqual(lines.slice(0, 9), [
      '# Conformance rule matrix',
      '',
      'Outcome: **nonconformant** (exit 1).',
      '',
      '- PAG-TOTAL (MUST) failed: Received: a\\|b',
      '',
      `Run status: failed; 2 GET requests in ${json.durationSeconds} s; no seed.`,
      '',
      '| rule | section | level | verdict | requests | evidence |',
    ]);
    assert.equal(lines[9], '|---|---|---|---|---|---|');
    assert.ok(lines.includes('| PAG-SIZE | §4.2 r1 | MUST | pass | 2 | 1/1 checks passed |'));
    assert.ok(lines.includes('| PAG-TOTAL | §4.2 r2 | MUST | fail | 0 | Received: a\\|b |'));
    assert.ok(lines.includes('| ADV-UNKNOWN-MERCHANT | §7 | ADVISORY | not run | 0 | no check selected |'));
    assert.equal(lines.filter((l) => /^\| [A-Z]+-/.test(l)).length, RULES.length);
  });

  test('console: the table and the summary line', async () => {
    const { console: printed, dir } = await run(
      [[fakeTest('PAG-SIZE a'), fakeResult('passed', { annotations: [requests(2)] })]],
      'passed',
    );
    assert.match(printed, /\n {2}PAG-SIZE +MUST +pass +2 {2}1\/1 checks passed\n/);
    assert.match(
      printed,
      new RegExp(
        `Requests sent: 2 \\(GET only\\) in \\d+\\.\\d s\\. Rules: 2 pass, ${RULES.length - 2} not run\\. Matrix: `,
      ),
    );
    assert.ok(printed.includes(`${dir}/conformance.md`));
  });

  test('no key, Base64 key or key-shaped string reaches the files or the console', async () => {
    const leaky = `PAG-TOTAL violated\n  Received: body echoed ${KEY} and ${b64(KEY)} and sk_test_derivedKEY123`;
    const {
      rawJson,
      md,
      console: printed,
    } = await run([
      [fakeTest('PAG-TOTAL a'), fakeResult('failed', { errors: [leaky] })],
      [
        fakeTest('ADV-SCHEME b'),
        fakeResult('passed', { annotations: [{ type: 'advisory', description: `  Received: ${b64(`${KEY}:`)}` }] }),
      ],
      [
        fakeTest('SRT-AMOUNT c'),
        fakeResult('skipped', { annotations: [{ type: 'inconclusive', description: `saw ${KEY}` }] }),
      ],
      [fakeTest(`AUTH-INVALID with ${KEY}`), fakeResult('passed')],
      [
        fakeTest('AUTH-REVOKED d'),
        fakeResult('skipped', { annotations: [{ type: 'skip', description: `skip ${KEY}` }] }),
      ],
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
