/**
 * fidelity/: the case list (deterministic, offsets relative to each target's `total`), the per-rule difference table
 * from two sets of fake exchanges, env files that are refused without printing a value, and two bundled mocks with
 * different legal choices compared end to end, with the reports a run writes (legal choices told from rules broken,
 * skipped cases with their reason, one JUnit test case per case, requests counted as requests).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ABSURD_OFFSET } from '../../core/generate/arbitraries.ts';
import type { AccessCase } from '../../core/model/access.ts';
import { PAYMENTS } from '../../core/model/collection.ts';
import { ACCESS_RULES } from '../../core/model/rules.ts';
import { buildCases, type Case, describeWindow, NOMINAL, place, relative } from '../../fidelity/cases.ts';
import { type Result, ruleTable } from '../../fidelity/compare.ts';
import { bodyShape, compare, judge } from '../../fidelity/judge.ts';
import { main } from '../../fidelity/main.ts';
import { type RunningMock, startMock } from '../../mock/index.ts';
import { envelope, fakeExchange } from '../support/exchange.ts';

const SECRET = 'sk_live_SECRETwrongSLOT9876';

describe('fidelity: the case list', () => {
  const show = (cases: Case[]) => JSON.stringify(cases); // key mutations are functions: compared by their names
  test('is the same for the same seed, runs and statuses, and changes with the seed', () => {
    assert.equal(show(buildCases(1, 12, ['PENDING'])), show(buildCases(1, 12, ['PENDING'])));
    assert.notEqual(show(buildCases(1, 12, ['PENDING'])), show(buildCases(2, 12, ['PENDING'])));
    const ids = buildCases(1, 12).map((c) => c.id);
    assert.deepEqual(ids, [...new Set(ids)]);
  });

  test('covers windows, the cap, unknown statuses, odd values and every rule of the access matrix', () => {
    const rules = new Set(buildCases(1, 12).map((c) => c.rule));
    for (const rule of ['ENV-SCHEMA', 'LIM-CAP', 'FLT-STATUS', 'INP-ROBUST', ...ACCESS_RULES]) {
      assert.ok(rules.has(rule as never), `no case for ${rule}`);
    }
  });

  test('a status the targets showed is never drawn as unknown', () => {
    const statuses = ['COMPLETED', 'PENDING', 'FAILED', 'completed', 'UNKNOWN', 'NO_SUCH_STATUS', ' COMPLETED'];
    const unknown = buildCases(3, 40, statuses).filter((c) => c.unknownStatus);
    assert.ok(unknown.length > 0);
    for (const c of unknown) assert.ok(!statuses.includes(c.window?.filter?.value as string), c.label);
  });

  test('access cases name the variables they need, never a key', () => {
    const cases = buildCases(1, 40).filter((c) => c.access);
    const needs = new Set(cases.flatMap((c) => c.needs));
    for (const v of ['API_LIVE_KEY', 'API_RESTRICTED_KEY', 'API_REVOKED_KEY', 'LIVE_MERCHANT_ID'])
      assert.ok(needs.has(v), v);
    assert.ok(!needs.has('API_TEST_KEY'), 'the test key is always set');
    for (const c of cases) assert.doesNotMatch(c.label, /sk_(test|live)_/);
  });
});

describe('fidelity: offsets placed against each target’s own total', () => {
  test('0 and absurd offsets stay; the end and around it follow total; inside offsets keep their share', () => {
    assert.deepEqual(
      [0, 237].map((t) => place(relative(0), t)),
      [0, 0],
    );
    assert.deepEqual(
      [0, 237].map((t) => place(relative(ABSURD_OFFSET), t)),
      [ABSURD_OFFSET, ABSURD_OFFSET],
    );
    assert.deepEqual(
      [NOMINAL - 1, NOMINAL, NOMINAL + 3].map((o) => place(relative(o), 237)),
      [236, 237, 240],
    );
    assert.deepEqual(
      [NOMINAL - 1, NOMINAL].map((o) => place(relative(o), 0)),
      [0, 0],
    );
    assert.deepEqual(
      [237, 10, 1, 0].map((t) => place(relative(420), t)),
      [99, 4, 0, 0],
    );
  });

  test('the label says where the offset is, not where it landed on one target', () => {
    assert.equal(describeWindow({ offset: relative(NOMINAL + 1), limit: 10 }), 'offset=total+1 limit=10');
    assert.equal(describeWindow({ offset: relative(NOMINAL - 1) }), 'offset=total-1');
    assert.equal(describeWindow({ offset: relative(420), sort: '-amount' }), 'offset=⌊0.42·total⌋ sort=-amount');
    assert.equal(describeWindow({}), '(no query parameters)');
  });

  test('the same case lands on different offsets for targets of different sizes', () => {
    const inside = buildCases(1, 12).filter((c) => c.window?.offset && 'share' in c.window.offset);
    assert.ok(inside.length > 0);
    for (const c of inside) {
      const o = c.window?.offset as ReturnType<typeof relative>;
      assert.ok(place(o, 50) < 50 && place(o, 5000) < 5000 && place(o, 50) <= place(o, 5000), c.label);
    }
  });
});

describe('fidelity: judging and the per-rule difference table', () => {
  const sent = { offset: 0, defaultLimit: 10, keyMode: () => 'test' as const };
  const window = (limit: number): Case => ({
    id: 'c1',
    rule: limit > 100 ? 'LIM-CAP' : 'ENV-SCHEMA',
    label: `offset=0 limit=${limit}`,
    needs: [],
    window: { offset: { abs: 0 }, limit },
  });
  const odd: Case = { id: 'c2', rule: 'INP-ROBUST', label: 'limit=-1 (negative)', needs: [], pairs: [['limit', '-1']] };
  const none: AccessCase = {
    collection: PAYMENTS,
    credential: { kind: 'none' },
    spelling: { scheme: 'Bearer', gap: ' ' },
    endpoint: 'list',
    merchant: 'sandbox',
    query: {},
  };
  const access: Case = { id: 'c3', rule: 'AUTH-MISSING', label: 'no Authorization header', needs: [], access: none };
  const page = (fields: Parameters<typeof envelope>[0]) => fakeExchange({ json: envelope(fields) });
  const diff = (c: Case, a: ReturnType<typeof fakeExchange>, b: ReturnType<typeof fakeExchange>) =>
    compare(judge(c, a, sent), judge(c, b, sent));

  test('two conforming pages of different data sets are answered alike', () => {
    assert.deepEqual(diff(window(10), page({ n: 10, total: 237 }), page({ n: 10, total: 12 })), []);
  });

  test('clamp against a 4xx for limit over 100: a status difference under LIM-CAP, and nothing more', () => {
    const clamp = page({ n: 100, limit: 100, total: 237 });
    const reject = fakeExchange({ status: 422, json: { error: { code: 'limit' } } });
    assert.deepEqual(diff(window(101), clamp, reject), [{ rule: 'LIM-CAP', aspect: 'status', a: '200', b: '422' }]);
  });

  test('a 400 and a 422 to odd input: the same status class, a different error body', () => {
    const a = fakeExchange({ status: 400, json: { success: false, message: 'bad limit' } });
    const b = fakeExchange({ status: 422, json: { error: { message: 'bad' } } });
    const body = { rule: 'INP-ROBUST', aspect: 'error body', a: '{message: string, success: boolean}' };
    assert.deepEqual(diff(odd, a, b), [{ ...body, b: '{error: object}' }]);
    assert.equal(bodyShape(fakeExchange({ status: 500, text: '<html>' })), 'not JSON');
    assert.equal(bodyShape(fakeExchange({ status: 404 })), 'empty');
  });

  test('a wrong echo and a short page are told apart by the suite’s checks (PAG-ECHO, PAG-SIZE)', () => {
    const wrong = page({ n: 7, offset: 5, total: 237 });
    const found = diff(window(10), page({ n: 10, total: 237 }), wrong);
    assert.deepEqual(
      found.map((d) => [d.rule, d.aspect, d.a]),
      [
        ['PAG-ECHO', 'echo', 'ok'],
        ['PAG-SIZE', 'page size', 'ok'],
      ],
    );
    assert.match(found[0]?.b ?? '', /^violated: offset 5, limit 10/);
  });

  test('access answers: the exact code, judged by the access oracle; a key echoed back shows under KEY-SECRET', () => {
    const [refused, served] = [fakeExchange({ status: 401 }), fakeExchange({ status: 200, json: envelope({ n: 1 }) })];
    assert.deepEqual(diff(access, refused, served), [
      { rule: 'AUTH-MISSING', aspect: 'status', a: '401', b: '200 (expected HTTP 401)' },
    ]);
    const leaked = fakeExchange({ status: 401, keyLeak: 'body' });
    assert.deepEqual(diff(access, refused, leaked), [
      { rule: 'KEY-SECRET', aspect: 'key echoed', a: 'no', b: 'yes, in the body' },
    ]);
  });

  test('the table counts, per rule, the cases compared, differing and skipped, with the first difference', () => {
    const result = (c: Case, a: ReturnType<typeof fakeExchange>, b: ReturnType<typeof fakeExchange>): Result => {
      const [x, y] = [judge(c, a, sent), judge(c, b, sent)];
      return { case: c, a: x, b: y, differences: compare(x, y) };
    };
    const clamp = page({ n: 100, limit: 100, total: 237 });
    const results = [
      result(window(101), clamp, fakeExchange({ status: 400, json: { message: 'no' } })),
      result({ ...window(150), id: 'c4' }, clamp, clamp),
      result(window(10), page({ n: 10, total: 50 }), page({ n: 10, total: 60 })),
      {
        case: { ...access, id: 'c5', rule: 'AUTH-REVOKED' as const },
        skipped: 'needs API_REVOKED_KEY',
        differences: [],
      },
    ];
    const rows = Object.fromEntries(ruleTable(results).map((r) => [r.rule, r]));
    assert.deepEqual(rows['LIM-CAP'], {
      rule: 'LIM-CAP',
      compared: 2,
      differ: 1,
      skipped: 0,
      first: 'status: 200 vs 400 (c1 offset=0 limit=101)',
    });
    // the clamped page of c1 informs ENV-SCHEMA too (on A's side), though B refused it
    assert.deepEqual([rows['ENV-SCHEMA']?.compared, rows['ENV-SCHEMA']?.differ], [3, 0]);
    assert.deepEqual(rows['AUTH-REVOKED'], {
      rule: 'AUTH-REVOKED',
      compared: 0,
      differ: 0,
      skipped: 1,
      first: 'needs API_REVOKED_KEY',
    });
    assert.equal(rows['SRT-AMOUNT'], undefined, 'a rule no case informs has no row');
  });
});

describe('fidelity: the command', () => {
  let dir: string;
  let mocks: RunningMock[] = [];
  const files: Record<string, string> = {};
  const envFile = (name: string, lines: Record<string, string>) => {
    files[name] = join(dir, `${name.replace(/\.env$/, '')}.env`);
    writeFileSync(
      files[name],
      `${Object.entries(lines)
        .map(([k, v]) => `${k}=${v}`)
        .join('\n')}\n`,
    );
    return files[name];
  };
  const run = async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(argv, { out: (t: string) => out.push(t), err: (t: string) => err.push(t) });
    return { code, out: out.join('\n'), err: err.join('\n') };
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fidelity-test-'));
    mocks = await Promise.all([
      startMock({ port: 0 }),
      startMock({ port: 0 }),
      startMock({ port: 0, variants: ['over-limit=reject', 'invalid=422'] }),
    ]);
    for (const [i, name] of ['base', 'twin', 'variant'].entries()) envFile(name, { ...mocks[i]?.env });
  });
  after(async () => {
    await Promise.all(mocks.map((m) => m.stop()));
    rmSync(dir, { recursive: true, force: true });
  });

  test('a bad env file: exit 2, the file and the variable named, no value printed', async () => {
    const bad = envFile('bad.env', {
      API_BASE_URL: 'http://127.0.0.1:1',
      SANDBOX_MERCHANT_ID: 'm',
      API_TEST_KEY: SECRET,
    });
    const r = await run(files.base as string, bad);
    assert.equal(r.code, 2);
    assert.match(r.err, /bad\.env \(B\)/);
    assert.match(r.err, /API_TEST_KEY does not have the sk_test_<hash> format/);
    assert.ok(!`${r.out}${r.err}`.includes('SECRETwrong'), 'the value was printed');
    const missing = await run(join(dir, 'nope.env'), files.base as string);
    assert.equal(missing.code, 2);
    assert.match(missing.err, /nope\.env \(A\).*\n.*unreadable \(ENOENT\)/);
    const noUrl = await run(files.base as string, envFile('nourl.env', { API_TEST_KEY: SECRET }));
    assert.match(noUrl.err, /nourl\.env \(B\)[\s\S]*API_BASE_URL is not set/);
    assert.ok(!noUrl.err.includes('SECRETwrong'));
  });

  test('bad usage: exit 2 with the usage', async () => {
    for (const argv of [[], [files.base as string], [files.base as string, files.twin as string, '--runs', '0']]) {
      const r = await run(...argv);
      assert.equal(r.code, 2, argv.join(' '));
      assert.match(r.err, /Usage: payment-api-conformance fidelity <envA> <envB>/);
    }
    assert.equal((await run(files.base as string, files.twin as string, '--seed', '-1')).code, 2);
  });

  test('a target that does not answer: exit 1, named', async () => {
    const down = envFile('down.env', { ...mocks[0]?.env, API_BASE_URL: 'http://127.0.0.1:9' });
    const r = await run(files.base as string, down, '--runs', '1');
    assert.equal(r.code, 1);
    assert.match(r.err, /down\.env \(B\) did not answer/);
  });

  test('two identical mocks answer alike; --fail-on-diff exits 0', async () => {
    const out = join(dir, 'same');
    const r = await run(files.base as string, files.twin as string, '--out', out, '--runs', '4', '--fail-on-diff');
    assert.equal(r.code, 0, r.err);
    const json = JSON.parse(readFileSync(join(out, 'fidelity.json'), 'utf8'));
    assert.ok(json.results.length > 40);
    assert.ok(json.results.every((x: Result) => x.differences.length === 0));
    assert.match(r.out, /^fidelity: (\d+)\/\1 cases answered alike/m);
  });

  test('over-limit=reject, invalid=422: differences under LIM-CAP and INP-ROBUST only, reported without a key', async () => {
    const out = join(dir, 'variant');
    const r = await run(files.base as string, files.variant as string, '--out', out);
    assert.equal(r.code, 0, r.err);
    const json = JSON.parse(readFileSync(join(out, 'fidelity.json'), 'utf8'));
    const differing = json.rules.filter((x: { differ: number }) => x.differ > 0).map((x: { rule: string }) => x.rule);
    assert.deepEqual(differing, ['LIM-CAP', 'INP-ROBUST']);
    assert.match(r.out, /^ {2}LIM-CAP +\d+ +\d+ +0 +status: 200 vs 422/m);
    assert.match(r.out, /^ {2}INP-ROBUST .*error body: \{message: string, success: boolean\} vs \{error: object\}/m);
    const md = readFileSync(join(out, 'fidelity.md'), 'utf8');
    assert.match(md, /^\| LIM-CAP \| c\d+ .* \| status \| 200 \| 422 \| legal choice \|$/m);
    const keys = Object.values(mocks[0]?.env ?? {}).filter((v) => v.startsWith('sk_'));
    for (const text of [r.out, JSON.stringify(json), md]) for (const k of keys) assert.ok(!text.includes(k));
    assert.equal((await run(files.base as string, files.variant as string, '--out', out, '--fail-on-diff')).code, 1);
  });
});
