/**
 * Each legal choice where the spec is silent (mock/variants.ts), observed over HTTP against a mock
 * started with that value. The defaults are covered by server.test.ts and query.test.ts.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { generateDataset, listingKey } from '../../mock/data.ts';
import { MESSAGES } from '../../mock/errors.ts';
import {
  IDENTITY,
  type RunningMock,
  resolveVariants,
  startMock,
  VARIANT_DEFAULTS,
  VARIANT_DIMENSIONS,
  VariantError,
} from '../../mock/index.ts';
import { parseVariantArg } from '../../mock/variants.ts';
import { assertEnvelope, call, ids, KEYS, list, MERCHANTS, page, walk } from './support.ts';

const SANDBOX = MERCHANTS.sandbox;
/** Printable ASCII to its fullwidth form (U+FF01..U+FF5E), which NFKC folds back. */
const fullwidth = (s: string) =>
  Array.from(s, (c) => String.fromCodePoint((c.codePointAt(0) as number) + 0xfee0)).join('');
const truth = generateDataset(IDENTITY.seed).listings.get(listingKey(SANDBOX, 'test')) ?? [];

type VariantCheck = (base: string, mock: RunningMock) => Promise<void>;

/** Every record of every listing the keys can read: sandbox, other sandbox, live merchant with each key. */
async function everyListing(base: string, limit = 100) {
  return [
    ...(await walk(base, SANDBOX, '', limit)).records,
    ...(await walk(base, MERCHANTS.otherSandbox, '', limit)).records,
    ...(await walk(base, MERCHANTS.live, '', limit)).records,
    ...(await walk(base, MERCHANTS.live, '', limit, KEYS.live)).records,
  ];
}

async function status(base: string, path: string, method = 'GET') {
  return call(base, path, { method });
}

/** One check per non-default value of every dimension; the default value is what the clean tests see. */
const VARIANT_CHECKS: Record<string, VariantCheck> = {
  'over-limit=reject': async (base) => {
    const res = await call(base, list(SANDBOX, 'limit=101'));
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { success: false, message: MESSAGES.limitTooLarge });
    assertEnvelope(await page(base, SANDBOX, 'limit=100'), 0, 100);
  },
  'invalid=422': async (base) => {
    const res = await call(base, list(SANDBOX, 'limit=abc'));
    assert.equal(res.status, 422);
    assert.deepEqual(res.body, { error: { code: 'invalid_parameter', detail: MESSAGES.invalidLimit, param: 'limit' } });
    const repeated = await call(base, list(SANDBOX, 'offset=1&offset=2'));
    assert.equal(repeated.status, 422);
    // Non-parameter errors keep the default shape.
    assert.deepEqual((await call(base, list(SANDBOX), { key: null })).body, {
      success: false,
      message: MESSAGES.missingKey,
    });
  },
  'invalid=coerce': async (base) => {
    const cases: [string, number, number][] = [
      ['limit=abc', 0, 10],
      ['limit=0', 0, 10],
      ['limit=-3', 0, 10],
      ['limit=1e2&offset=1.5', 0, 10],
      ['offset=-5&limit=4', 0, 4],
      ['limit=5&limit=7&offset=2&offset=9', 2, 5],
      ['offset=99999999999999999999', Number.MAX_SAFE_INTEGER, 10],
    ];
    for (const [query, offset, limit] of cases) {
      const env = await page(base, SANDBOX, query);
      assertEnvelope(env, offset, limit);
      assert.equal(env.total, truth.length, query);
    }
    const env = await page(base, SANDBOX, 'filter[status]=&sort=');
    assert.equal(env.total, truth.length);
  },
  'integers=strict': async (base) => {
    for (const query of ['offset=010', 'offset=2147483648', 'limit=0100', `limit=${'9'.repeat(30)}`]) {
      const res = await call(base, list(SANDBOX, query));
      assert.equal(res.status, 400, query);
      assert.equal((res.body as { success?: unknown }).success, false, query);
    }
    assertEnvelope(await page(base, SANDBOX, 'offset=2147483647&limit=7'), 2147483647, 7);
    assertEnvelope(await page(base, SANDBOX, 'offset=0&limit=100'), 0, 100);
    // Over the cap but a 32-bit integer: the variant over-limit decides, as with integers=safe.
    assertEnvelope(await page(base, SANDBOX, 'limit=2147483647'), 0, 100);
  },
  'unknown-status=reject': async (base) => {
    const res = await call(base, list(SANDBOX, 'filter[status]=SETTLED'));
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { success: false, message: MESSAGES.unknownStatus });
  },
  'unknown-sort=ignore': async (base) => {
    const env = await page(base, SANDBOX, 'sort=createdAt&limit=20');
    assert.deepEqual(
      ids(env.data),
      truth.slice(0, 20).map((p) => p.id),
    );
    assert.equal((await call(base, list(SANDBOX, 'sort='))).status, 400, 'an empty sort stays invalid');
  },
  'ties=reverse': async (base) => {
    for (const [sort, dir] of [
      ['amount', 1],
      ['-amount', -1],
    ] as const) {
      const { records } = await walk(base, SANDBOX, `sort=${sort}`, 30);
      const expected = [...truth].sort((a, b) => dir * (a.amount - b.amount) || (a.id < b.id ? 1 : -1));
      assert.deepEqual(
        ids(records),
        expected.map((p) => p.id),
      );
    }
  },
  'unsorted=newest': async (base) => {
    const { records } = await walk(base, SANDBOX, '', 50);
    assert.deepEqual(ids(records), truth.map((p) => p.id).reverse());
  },
  'unknown-merchant=403': async (base) => {
    const res = await call(base, list('msb_nope'));
    assert.equal(res.status, 403);
    assert.deepEqual(res.body, { success: false, message: MESSAGES.merchantForbidden });
    assert.equal((await call(base, list('msb_nope'), { key: null })).status, 401);
  },
  'amount=string': async (base) => {
    const { records } = await walk(base, SANDBOX, 'sort=-amount', 100);
    assert.ok(records.every((r) => typeof r.amount === 'string' && /^[1-9]\d{0,5}$/.test(r.amount)));
    const numbers = records.map((r) => Number(r.amount));
    assert.ok(
      numbers.every((n, i) => i === 0 || n <= (numbers[i - 1] as number)),
      'numeric order',
    );
  },
  'extras=on': async (base) => {
    const res = await call(base, list(SANDBOX, 'offset=230&limit=5'));
    const env = res.body;
    assert.equal(env.page, 47);
    assert.equal(env.hasMore, true);
    assertEnvelope(env, 230, 5);
    assert.match(res.headers.get('x-request-id') ?? '', /^req_[0-9a-z]{8}$/);
    assert.ok(env.data.every((r) => typeof r.description === 'string'));
    assert.equal((await page(base, SANDBOX, 'offset=235&limit=5')).hasMore, false);
  },
  'routing=route-first': async (base) => {
    const unknown = ['/nowhere', '/', '/merchant/status/', `${list(SANDBOX)}/`, '/payments/n1/merchant'];
    for (const path of unknown) {
      const res = await call(base, path, { key: null });
      assert.equal(res.status, 404, path);
      assert.deepEqual(res.body, { success: false, message: MESSAGES.notFound });
      assert.equal((await call(base, path, { key: 'sk_test_wrong', method: 'DELETE' })).status, 404, path);
    }
    // The spec's endpoints, any merchant id, any query, still authenticate first.
    const spec = ['/merchant/status', list(SANDBOX), list('msb_nope'), list('msb_nope', 'sort=amount')];
    for (const path of spec) {
      assert.deepEqual((await call(base, path, { key: null })).body, { success: false, message: MESSAGES.missingKey });
      assert.equal((await call(base, path, { key: 'sk_test_wrong' })).status, 401, path);
      assert.equal((await call(base, path, { key: KEYS.revoked })).status, 401, path);
      assert.equal((await call(base, path, { key: null, method: 'POST' })).status, 401, path);
    }
    assertEnvelope(await page(base, SANDBOX), 0, 10);
  },
  'spacing=strict': async (base) => {
    for (const path of ['/merchant/status', list(SANDBOX)]) {
      for (const auth of [`Bearer  ${KEYS.test}`, `Bearer\t${KEYS.test}`, `bearer   ${KEYS.test}`]) {
        const res = await call(base, path, { auth });
        assert.equal(res.status, 401, JSON.stringify(auth));
        assert.deepEqual(res.body, { success: false, message: MESSAGES.invalidKey });
      }
      for (const auth of [`Bearer ${KEYS.test}`, `bearer ${KEYS.test}`, `BEARER ${KEYS.test}`]) {
        assert.equal((await call(base, path, { auth })).status, 200, auth);
      }
    }
  },
  'amount=decimal': async (base) => {
    const { records } = await walk(base, SANDBOX, 'sort=-amount', 100);
    assert.ok(records.every((r) => typeof r.amount === 'string' && /^\d{1,4}\.\d{2}$/.test(r.amount)));
    const numbers = records.map((r) => Number(r.amount));
    assert.ok(
      numbers.every((n, i) => i === 0 || n <= (numbers[i - 1] as number)),
      'numeric order',
    );
    // The amounts are the data set's minor units over 100: 1 → "0.01", 123456 → "1234.56".
    const cents = new Map(truth.map((p) => [p.id, p.amount]));
    for (const r of records) assert.equal(Math.round(Number(r.amount) * 100), cents.get(String(r.id)), String(r.id));
  },
  'scheme=exact': async (base) => {
    for (const path of ['/merchant/status', list(SANDBOX)]) {
      assert.equal((await call(base, path, { auth: `Bearer ${KEYS.test}` })).status, 200, path);
      assert.equal((await call(base, path, { auth: `Bearer  ${KEYS.test}` })).status, 200, 'spacing stays lenient');
      for (const scheme of ['bearer', 'BEARER', 'bEaReR', 'Bearer:']) {
        const res = await call(base, path, { auth: `${scheme} ${KEYS.test}` });
        assert.equal(res.status, 401, `${scheme} on ${path}`);
        assert.deepEqual(res.body, { success: false, message: MESSAGES.invalidKey });
      }
      assert.equal((await call(base, path, { auth: `Bearer ${KEYS.revoked}` })).status, 401);
      assert.equal((await call(base, path, { auth: `bearer ${KEYS.revoked}` })).status, 401);
    }
  },
  'errors=problem': async (base) => {
    const cases: [string, string | null, number, string, string][] = [
      [list(SANDBOX), null, 401, 'Unauthorized', MESSAGES.missingKey],
      [list(SANDBOX), 'sk_test_wrong', 401, 'Unauthorized', MESSAGES.invalidKey],
      [list(SANDBOX), KEYS.restricted, 403, 'Forbidden', MESSAGES.forbidden],
      [list(SANDBOX), KEYS.live, 404, 'Not Found', MESSAGES.otherMode],
      [list(SANDBOX, 'limit=abc'), KEYS.test, 400, 'Bad Request', MESSAGES.invalidLimit],
      ['/nowhere', KEYS.test, 404, 'Not Found', MESSAGES.notFound],
    ];
    for (const [path, key, code, title, detail] of cases) {
      const res = await call(base, path, { key });
      assert.equal(res.status, code, path);
      assert.equal(res.headers.get('content-type'), 'application/problem+json');
      assert.deepEqual(res.body, { type: 'about:blank', title, status: code, detail });
    }
    const res = await call(base, list(SANDBOX), { method: 'DELETE' });
    assert.equal(res.status, 405);
    assert.equal(res.headers.get('allow'), 'GET, HEAD');
    assert.equal((res.body as unknown as { title: string }).title, 'Method Not Allowed');
    assertEnvelope(await page(base, SANDBOX), 0, 10);
  },
  'errors=text': async (base) => {
    const cases: [string, string | null, number, string][] = [
      [list(SANDBOX), null, 401, MESSAGES.missingKey],
      [list(SANDBOX, 'limit=abc'), KEYS.test, 400, MESSAGES.invalidLimit],
      [list('msb_nope'), KEYS.test, 404, MESSAGES.merchantNotFound],
    ];
    for (const [path, key, code, message] of cases) {
      const res = await call(base, path, { key });
      assert.equal(res.status, code, path);
      assert.equal(res.headers.get('content-type'), 'text/plain; charset=utf-8');
      assert.equal(res.text, `${message}\n`, 'one line');
    }
    assertEnvelope(await page(base, SANDBOX), 0, 10);
  },
  'ids=integer': async (base) => {
    const records = await everyListing(base);
    assert.ok(records.every((r) => Number.isSafeInteger(r.id)));
    assert.equal(new Set(ids(records)).size, records.length, 'unique across merchants and modes');
    assert.deepEqual(ids(await everyListing(base, 37)), ids(records), 'stable from request to request');
    // ties=id: equal amounts in ascending id, numerically.
    const sorted = (await walk(base, SANDBOX, 'sort=amount', 100)).records;
    assert.ok(
      sorted.every((r, i) => {
        const prev = sorted[i - 1];
        return !prev || Number(prev.amount) < Number(r.amount) || Number(prev.id) < Number(r.id);
      }),
    );
  },
  'status-endpoint=204': async (base) => {
    for (const key of [KEYS.test, KEYS.live, KEYS.restricted]) {
      const res = await call(base, '/merchant/status', { key });
      assert.equal(res.status, 204);
      assert.equal(res.text, '');
      assert.equal(res.headers.get('content-type'), null);
      assert.equal(res.headers.get('content-length'), null);
    }
    assert.equal((await call(base, '/merchant/status', { key: null })).status, 401);
    assert.equal((await call(base, '/merchant/status', { key: KEYS.revoked })).status, 401);
  },
  'status-endpoint=text': async (base) => {
    for (const [key, mode] of [
      [KEYS.test, 'sandbox'],
      [KEYS.live, 'live'],
      [KEYS.restricted, 'sandbox'],
    ] as const) {
      const res = await call(base, '/merchant/status', { key });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'text/plain; charset=utf-8');
      assert.equal(res.text, `${MESSAGES.keyAccepted} (${mode} mode)\n`);
    }
    assert.equal((await call(base, '/merchant/status', { key: null })).status, 401);
  },
  'prefix=api': async (base, mock) => {
    assert.equal(base, `${mock.origin}/api/v2`);
    assert.equal(mock.env.API_BASE_URL, base);
    assertEnvelope(await page(base, SANDBOX), 0, 10);
    assert.equal((await call(base, '/merchant/status')).status, 200);
    // Under the prefix, the usual order: no key 401 on any path; a valid key on an unknown path 404.
    for (const path of ['/merchant/status', list(SANDBOX), '/nowhere', '', '/']) {
      assert.equal((await call(base, path, { key: null })).status, 401, `${path} without a key`);
    }
    assert.equal((await call(base, '/nowhere')).status, 404);
    // Outside the prefix: 404 for any credential, any method.
    const outside = ['/merchant/status', list(SANDBOX), '/api/v2x/merchant/status', '/api/merchant/status', '/'];
    for (const path of outside) {
      for (const key of [null, KEYS.test, KEYS.live, 'sk_test_wrong']) {
        const res = await call(mock.origin, path, { key });
        assert.equal(res.status, 404, `${path} with ${key === null ? 'no key' : 'a key'}`);
        assert.deepEqual(res.body, { success: false, message: MESSAGES.notFound });
      }
      assert.equal((await call(mock.origin, path, { method: 'POST' })).status, 404);
    }
  },
  'data=new-account': async (base) => {
    const sandbox = await walk(base, SANDBOX, '', 3);
    assert.equal(sandbox.total, 7);
    const counts = new Map<string, number>();
    for (const r of sandbox.records) counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
    assert.deepEqual(Object.fromEntries(counts), { COMPLETED: 5, PENDING: 2 });
    const live = await page(base, MERCHANTS.live, '', KEYS.live);
    assertEnvelope(live, 0, 10);
    assert.equal(live.total, 0, 'no live payment yet');
    assert.deepEqual(live.data, []);
    assert.equal((await page(base, MERCHANTS.live)).total, 3, 'the test payments of the live merchant');
    assert.equal((await page(base, MERCHANTS.otherSandbox)).total, 2);
    const failed = await page(base, SANDBOX, 'filter[status]=FAILED');
    assert.deepEqual([failed.total, failed.data], [0, []]);
    assert.equal((await page(base, SANDBOX, 'offset=7')).data.length, 0);
  },
  'data=large': async (base) => {
    const { records, total } = await walk(base, SANDBOX, 'sort=amount', 100);
    assert.equal(total, 2500);
    assert.equal(new Set(ids(records)).size, 2500);
    assert.equal((await page(base, SANDBOX, 'filter[status]=COMPLETED')).total, 1125, '45 %');
    assertEnvelope(await page(base, SANDBOX, 'offset=2495'), 2495, 10);
    assert.equal((await page(base, MERCHANTS.live, '', KEYS.live)).total, 143, 'the other listings as usual');
  },
  'errors=rich': async (base) => {
    const res = await call(base, list(SANDBOX), { key: KEYS.restricted });
    assert.equal(res.status, 403);
    const error = (res.body as unknown as { error: Record<string, unknown> }).error;
    assert.equal(typeof error.id, 'number');
    assert.deepEqual([error.httpStatus, error.path, error.merchantId], [403, list(SANDBOX), SANDBOX]);
    assert.deepEqual([error.key, error.keyLast4], [`sk_test_…${KEYS.restricted.slice(-4)}`, KEYS.restricted.slice(-4)]);
    assert.ok(!res.text.includes(KEYS.restricted.slice(8, -4)), 'no more of the key than its last four');
    const none = await call(base, '/merchant/status', { key: null });
    assert.equal((none.body as unknown as { error: Record<string, unknown> }).error.keyLast4, undefined);
  },
  'documented-headers=enforced': async (base) => {
    const json = { 'Content-Type': 'application/json' };
    assert.equal((await call(base, '/merchant/status')).status, 415, 'no Content-Type');
    assert.equal((await call(base, '/merchant/status', { key: null })).status, 415, 'before authentication');
    assert.equal((await call(base, '/merchant/status', { headers: { 'Content-Type': 'text/plain' } })).status, 415);
    assert.equal((await call(base, '/merchant/status', { headers: json })).status, 200);
    const charset = { 'Content-Type': 'Application/JSON; charset=utf-8' };
    assert.equal((await call(base, '/merchant/status', { headers: charset })).status, 200, 'parameters and case');
    assert.equal((await call(base, '/merchant/status', { key: null, headers: json })).status, 401);
    assert.equal((await call(base, list(SANDBOX))).status, 200, 'the list documents no Content-Type');
  },
  'unknown-params=reject': async (base) => {
    const refused = await call(base, list(SANDBOX, 'limit=5&merchant_id=x'));
    assert.equal(refused.status, 400, 'a parameter the listing does not take');
    assert.equal((await call(base, list(SANDBOX, 'limit=5&merchant_id=x'), { key: null })).status, 401, 'after auth');
    assert.equal((await call(base, list(SANDBOX, 'limit=5&merchant_id=x'), { key: KEYS.live })).status, 404);
    assertEnvelope(await page(base, SANDBOX, 'limit=5&offset=1&filter[status]=COMPLETED&sort=amount'), 1, 5);
    assert.equal((await call(base, '/merchant/status?x=1')).status, 400, 'the status endpoint takes no query');
    assert.equal((await call(base, '/merchant/status')).status, 200);
  },
  'busy=retry-after': async (base) => {
    const statuses: number[] = [];
    const retry: Array<string | null> = [];
    for (let i = 0; i < 40; i++) {
      const r = await call(base, '/merchant/status');
      statuses.push(r.status);
      if (r.status === 503) retry.push(r.headers.get('retry-after'));
    }
    assert.equal(statuses.filter((s) => s === 503).length, 1, 'one request in 37');
    assert.deepEqual(retry, ['0']);
    assert.ok(statuses.every((s) => s === 200 || s === 503));
  },
  'representations=negotiated': async (base) => {
    const plain = await call(base, list(SANDBOX, 'limit=5'));
    const tag = plain.headers.get('etag') ?? '';
    assert.match(tag, /^"[0-9a-f]+"$/);
    assert.equal(plain.headers.get('vary'), 'Accept');
    const again = await call(base, list(SANDBOX, 'limit=5'), { headers: { 'if-none-match': tag } });
    assert.deepEqual([again.status, again.text], [304, ''], 'its own tag: not modified');
    assert.equal((await call(base, list(SANDBOX, 'limit=5'), { headers: { 'if-none-match': '*' } })).status, 304);
    const refused = await call(base, list(SANDBOX, 'limit=5'), { key: null, headers: { 'if-none-match': tag } });
    assert.equal(refused.status, 401, 'after authentication: a request without a key is refused');
    const csv = await call(base, list(SANDBOX, 'limit=5'), { headers: { accept: 'text/csv, application/json;q=0.5' } });
    assert.match(csv.headers.get('content-type') ?? '', /^text\/csv/);
    const lines = csv.text.split('\n');
    assert.equal(lines.length, 6, 'a header row and the page: capped like the JSON page');
    const ids = (plain.body.data as Array<{ id: unknown }>).map((r) => String(r.id));
    assert.deepEqual(
      lines.slice(1).map((l) => l.split(',')[lines[0]?.split(',').indexOf('id') ?? 0]),
      ids,
    );
    assert.equal((await call(base, list(SANDBOX, 'limit=5'), { headers: { accept: 'application/json' } })).status, 200);
  },
  'head=refused': async (base) => {
    for (const path of [list(SANDBOX), '/merchant/status']) {
      for (const key of [KEYS.test, KEYS.live, null]) {
        const res = await call(base, path, { key, method: 'HEAD' });
        assert.deepEqual([res.status, res.headers.get('allow'), res.text], [405, 'GET', ''], `${path} ${key}`);
      }
      assert.equal((await call(base, path)).status, 200, 'GET as before');
    }
    assert.equal((await call(base, '/nowhere', { method: 'HEAD' })).status, 404, 'no endpoint: as GET');
    assert.equal((await call(base, '/nowhere', { key: null, method: 'HEAD' })).status, 401);
    assert.equal((await call(base, list(SANDBOX), { method: 'DELETE' })).headers.get('allow'), 'GET');
  },
  'options=cors': async (base) => {
    const preflight = { Origin: 'https://app.example', 'Access-Control-Request-Method': 'GET' };
    for (const path of [list(SANDBOX), '/merchant/status', '/nowhere']) {
      for (const [key, headers] of [
        [null, preflight],
        [null, {}],
        [KEYS.test, {}],
        ['sk_test_wrong', {}],
      ] as const) {
        const res = await call(base, path, { key, headers, method: 'OPTIONS' });
        const h = (name: string) => res.headers.get(name);
        assert.deepEqual(
          [res.status, res.text, h('allow'), h('access-control-allow-methods'), h('access-control-allow-origin')],
          [204, '', 'GET, HEAD, OPTIONS', 'GET, HEAD, OPTIONS', '*'],
          `${path} ${key}`,
        );
        assert.equal(h('access-control-allow-headers'), 'Authorization, Content-Type');
      }
    }
    const get = await call(base, list(SANDBOX));
    assert.deepEqual([get.status, get.headers.get('access-control-allow-origin')], [200, '*'], 'CORS on every answer');
    assert.equal((await call(base, list(SANDBOX), { key: null })).status, 401, 'GET authenticates as before');
    const del = await call(base, list(SANDBOX), { method: 'DELETE' });
    assert.deepEqual([del.status, del.headers.get('allow')], [405, 'GET, HEAD, OPTIONS']);
  },
  'options=allow': async (base) => {
    for (const path of [list(SANDBOX), '/merchant/status']) {
      for (const key of [KEYS.test, KEYS.live, KEYS.restricted]) {
        const res = await call(base, path, { key, method: 'OPTIONS' });
        assert.deepEqual(
          [res.status, res.headers.get('allow'), res.text],
          [200, 'GET, HEAD, OPTIONS', 'GET, HEAD, OPTIONS'],
          `${path} ${key}`,
        );
      }
      for (const key of [null, KEYS.revoked]) {
        assert.equal((await call(base, path, { key, method: 'OPTIONS' })).status, 401, 'after authentication');
      }
    }
    assert.equal((await call(base, '/nowhere', { method: 'OPTIONS' })).status, 404);
  },
  'merchant-lookup=casefold': async (base) => {
    assert.equal((await page(base, SANDBOX.toUpperCase())).total, 237, 'another case: the same merchant');
    assert.equal((await call(base, list(SANDBOX.toUpperCase()), { key: KEYS.live })).status, 404, 'its mode rule');
    assert.equal(
      (await call(base, list(SANDBOX.toUpperCase()), { key: KEYS.restricted })).status,
      403,
      'its permission',
    );
    assert.equal((await call(base, list(SANDBOX.toUpperCase()), { key: null })).status, 401);
    assert.equal((await page(base, MERCHANTS.live.toUpperCase(), '', KEYS.live)).total, 143, 'the live payments only');
    assert.equal((await call(base, list(fullwidth(SANDBOX)))).status, 404, 'fullwidth: no merchant');
  },
  'merchant-lookup=nfkc': async (base) => {
    assert.equal((await page(base, fullwidth(SANDBOX))).total, 237, 'fullwidth: the same merchant');
    assert.equal((await page(base, fullwidth(SANDBOX).toUpperCase())).total, 237, 'and its case');
    assert.equal((await call(base, list(fullwidth(SANDBOX)), { key: KEYS.live })).status, 404, 'its mode rule');
    assert.equal((await call(base, list(fullwidth(SANDBOX)), { key: KEYS.restricted })).status, 403, 'its permission');
    assert.equal((await page(base, fullwidth(MERCHANTS.live))).total, 61, 'the test payments only');
    assert.equal((await call(base, list(`${SANDBOX} `))).status, 404, 'trailing space: no merchant');
  },
  'merchant-lookup=collation': async (base) => {
    for (const spelled of [`${SANDBOX} `, `${SANDBOX}\u00a0`, SANDBOX.replace('a', '\u00e1'), fullwidth(SANDBOX)]) {
      assert.equal((await page(base, spelled)).total, 237, JSON.stringify(spelled));
      assert.equal((await call(base, list(spelled), { key: KEYS.live })).status, 404, 'its mode rule');
      assert.equal((await call(base, list(spelled), { key: KEYS.restricted })).status, 403, 'its permission');
    }
    assert.equal((await call(base, list(` ${SANDBOX}`))).status, 404, 'a leading space counts');
    assert.equal((await call(base, list(`${SANDBOX}.`))).status, 404, 'a dot counts');
  },
  'method=404': async (base) => {
    const res = await status(base, list(SANDBOX), 'DELETE');
    assert.equal(res.status, 404);
    assert.equal(res.headers.get('allow'), null);
    assert.deepEqual(res.body, { success: false, message: MESSAGES.notFound });
    assert.equal((await call(base, list(SANDBOX), { key: null, method: 'DELETE' })).status, 401);
  },
};

describe('variants over HTTP', () => {
  test('every non-default value has a check, and every check a value', () => {
    const values = VARIANT_DIMENSIONS.flatMap((d) => d.values.slice(1).map((v) => `${d.name}=${v}`));
    assert.deepEqual(Object.keys(VARIANT_CHECKS).sort(), values.sort());
  });
  for (const [pair, check] of Object.entries(VARIANT_CHECKS)) {
    test(pair, async () => {
      const mock = await startMock({ variants: [pair] });
      try {
        await check(mock.url, mock);
      } finally {
        await mock.stop();
      }
    });
  }
  test('variants combine: strict set', async () => {
    const mock = await startMock({ variants: ['over-limit=reject,invalid=422', 'unknown-sort=reject'] });
    try {
      const res = await call(mock.url, list(SANDBOX, 'limit=500'));
      assert.equal(res.status, 422);
      assert.deepEqual(res.body, {
        error: { code: 'invalid_parameter', detail: MESSAGES.limitTooLarge, param: 'limit' },
      });
      assert.equal((await call(mock.url, list(SANDBOX), { key: KEYS.live })).status, 404);
    } finally {
      await mock.stop();
    }
  });
});

describe('new axes combined', () => {
  test('errors=problem wins over the invalid=422 shape; the status stays 422', async () => {
    const mock = await startMock({ variants: ['errors=problem,invalid=422'] });
    try {
      const res = await call(mock.url, list(SANDBOX, 'limit=abc'));
      assert.equal(res.status, 422);
      assert.deepEqual(res.body, {
        type: 'about:blank',
        title: 'Unprocessable Entity',
        status: 422,
        detail: MESSAGES.invalidLimit,
      });
    } finally {
      await mock.stop();
    }
  });
  test('prefix=api with routing=route-first: inside the prefix an unknown path is 404 before auth', async () => {
    const mock = await startMock({ variants: ['prefix=api,routing=route-first,scheme=exact,errors=text'] });
    try {
      assert.equal((await call(mock.url, '/nowhere', { key: null })).status, 404);
      assert.equal((await call(mock.url, list(SANDBOX), { key: null })).text, `${MESSAGES.missingKey}\n`);
      assert.equal((await call(mock.url, list(SANDBOX), { auth: `bearer ${KEYS.test}` })).status, 401);
      assert.equal((await call(mock.origin, '/merchant/status')).text, `${MESSAGES.notFound}\n`);
    } finally {
      await mock.stop();
    }
  });
});

describe('variant options', () => {
  test('defaults are the first value of every dimension', () => {
    assert.deepEqual(resolveVariants(), VARIANT_DEFAULTS);
    for (const d of VARIANT_DIMENSIONS) assert.equal(VARIANT_DEFAULTS[d.name], d.values[0]);
  });
  test('docs/mock.md has a row per dimension, default first, with its description', () => {
    const docs = readFileSync(new URL('../../docs/mock.md', import.meta.url), 'utf8');
    for (const d of VARIANT_DIMENSIONS) {
      const values = d.values.map((v, i) => (i === 0 ? `**${v}**` : v)).join(', ');
      assert.ok(docs.includes(`| \`${d.name}\` | ${values} | ${d.description} |`), `${d.name} row in docs/mock.md`);
    }
  });
  test('every dimension documents itself', () => {
    for (const d of VARIANT_DIMENSIONS) {
      assert.ok(d.values.length >= 2 && d.description.length > 10 && d.gap.length > 5, d.name);
    }
  });
  test('object form, list form and comma lists', () => {
    assert.equal(resolveVariants({ ties: 'reverse' }).ties, 'reverse');
    const v = resolveVariants(['over-limit=reject,invalid=422', 'amount=string']);
    assert.deepEqual([v['over-limit'], v.invalid, v.amount, v.ties], ['reject', '422', 'string', 'id']);
    assert.deepEqual(parseVariantArg(' ties=reverse , extras=on '), [
      ['ties', 'reverse'],
      ['extras', 'on'],
    ]);
  });
  test('an unknown name names it and lists the variants', () => {
    assert.throws(
      () => resolveVariants(['speed=fast']),
      (err: Error) => {
        assert.ok(err instanceof VariantError);
        assert.match(err.message, /unknown variant "speed"/);
        assert.match(err.message, /over-limit, invalid, unknown-status/);
        return true;
      },
    );
  });
  test('an unknown value names it and lists the allowed values', () => {
    assert.throws(
      () => resolveVariants({ 'over-limit': 'maybe' }),
      /over-limit has no value "maybe"; allowed: clamp, reject/,
    );
    assert.throws(() => resolveVariants(['ties']), /must have the form name=value/);
  });
  test('startMock rejects a bad variant before binding a port', async () => {
    await assert.rejects(startMock({ variants: { invalid: '418' } }), VariantError);
  });
});
