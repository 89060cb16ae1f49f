/**
 * Shapes learned, logic kept: the mock's templates (mock/shapes.ts) filled with its own values, the mock answering
 * in a learned shape (a refusal's body and headers, the status body per mode, the envelope's fields, statuses named
 * another way) and loading a calibration file (`--calibration`); an answer's skeleton without the target's values
 * (fidelity/skeleton.ts), and skeletons merged into templates (fidelity/learn-shapes.ts).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { merge, statusNames } from '../../fidelity/learn-shapes.ts';
import { type Scrub, skeletonOf } from '../../fidelity/skeleton.ts';
import { main as mockCli } from '../../mock/cli.ts';
import { type Shapes, startMock } from '../../mock/index.ts';
import { errorShape, fill } from '../../mock/shapes.ts';

const dir = mkdtempSync(join(tmpdir(), 'shapes-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('templates', () => {
  test('a lone placeholder takes its value’s type; others are spliced in; an unknown one stays as written', () => {
    const t = {
      status: '{{status}}',
      more: '{{hasMore}}',
      at: 'GET {{path}}{{query}}',
      x: '{{nope}}',
      list: ['{{page}}'],
    };
    assert.deepEqual(fill(t, { status: 404, hasMore: false, path: '/p', query: '', page: 2 }), {
      status: 404,
      more: false,
      at: 'GET /p',
      x: '{{nope}}',
      list: [2],
    });
  });

  test('an error shape for the status and kind first, then the status, then any', () => {
    const shapes: Shapes = {
      errors: [{ status: 401, kinds: ['revokedKey'], body: 'a' }, { status: 401, body: 'b' }, { body: 'c' }],
    };
    assert.equal(errorShape(shapes, 401, 'revokedKey')?.body, 'a');
    assert.equal(errorShape(shapes, 401, 'invalidKey')?.body, 'b');
    assert.equal(errorShape(shapes, 404, 'notFound')?.body, 'c');
  });
});

describe('the mock answers in learned shapes, with its own logic and data', () => {
  const shapes: Shapes = {
    errors: [
      {
        status: 401,
        type: 'application/problem+json',
        body: { code: '{{CODE}}', detail: '{{message}}', at: '{{path}}', key: '…{{keyLast4}}', n: '{{status}}' },
        headers: { 'www-authenticate': 'Bearer realm="api"' },
      },
    ],
    status: {
      type: 'application/json',
      body: { livemode: '{{mode}}' },
      modes: { test: { mode: false }, live: { mode: true } },
    },
    envelope: { has_more: '{{hasMore}}', next: '{{nextOffset}}' },
    headers: { server: 'vendor' },
    statuses: { CANCELED: 'DISPUTED' },
  };
  test('refusals, the status body per mode, the envelope’s fields, headers, statuses', async () => {
    const mock = await startMock({ port: 0, shapes });
    const get = (path: string, key?: string) =>
      fetch(`${mock.url}${path}`, { headers: key ? { authorization: `Bearer ${key}` } : {} });
    try {
      const list = `/payments/n1/merchant/${mock.env.SANDBOX_MERCHANT_ID}/payments`;
      const refused = await get(list, 'sk_test_notAKeyAtAll1234');
      assert.equal(refused.status, 401, 'the logic is the mock’s');
      assert.equal(refused.headers.get('content-type'), 'application/problem+json');
      assert.equal(refused.headers.get('www-authenticate'), 'Bearer realm="api"');
      assert.equal(refused.headers.get('server'), 'vendor');
      assert.deepEqual(await refused.json(), {
        code: 'UNAUTHORIZED',
        detail: 'Invalid API key',
        at: list,
        key: '…1234',
        n: 401,
      });
      assert.deepEqual(await (await get('/merchant/status', mock.env.API_TEST_KEY)).json(), { livemode: false });
      assert.deepEqual(await (await get('/merchant/status', mock.env.API_LIVE_KEY)).json(), { livemode: true });
      const page = (await (await get(`${list}?limit=5`, mock.env.API_TEST_KEY)).json()) as Record<string, unknown>;
      assert.deepEqual([page.has_more, page.next, page.total], [true, 5, 237]);
      const disputed = (await (await get(`${list}?filter[status]=DISPUTED`, mock.env.API_TEST_KEY)).json()) as {
        total: number;
        data: Array<{ status: string }>;
      };
      assert.equal(disputed.total, 19, 'the CANCELED payments, named as the reference names them');
      assert.ok(disputed.data.every((r) => r.status === 'DISPUTED'));
      const canceled = (await (await get(`${list}?filter[status]=CANCELED`, mock.env.API_TEST_KEY)).json()) as {
        total: number;
      };
      assert.equal(canceled.total, 0, 'its own name is no status any more');
    } finally {
      await mock.stop();
    }
  });

  test('--calibration FILE: the variants and shapes; a bad file is exit 2, named', async () => {
    const file = join(dir, 'calibration.json');
    writeFileSync(
      file,
      JSON.stringify({ format: 'payment-api-mock-calibration', version: 1, variants: { ties: 'reverse' }, shapes }),
    );
    const lines: string[] = [];
    let stop: () => void = () => {};
    const io = {
      out: (l: string) => void lines.push(l),
      err: (l: string) => void lines.push(l),
      stopSignal: () => new Promise<void>((r) => (stop = r)),
    };
    const running = mockCli(['--port', '0', '--calibration', file], io);
    while (!lines.some((l) => l.startsWith('# calibration'))) await new Promise((r) => setTimeout(r, 20));
    stop();
    assert.equal(await running, 0);
    assert.match(lines.join('\n'), /# variants: .*ties=reverse/);
    assert.match(
      lines.join('\n'),
      /# calibration: .*shapes: 1 error shape\(s\); the status body; envelope fields has_more, next/,
    );
    writeFileSync(
      file,
      JSON.stringify({ format: 'payment-api-mock-calibration', version: 1, variants: { ties: 'x' } }),
    );
    const bad: string[] = [];
    assert.equal(await mockCli(['--calibration', file], { ...io, err: (l) => void bad.push(l) }), 2);
    assert.match(bad.join('\n'), /calibration\.json: variant ties has no value "x"/);
  });
});

describe('an answer’s skeleton, and skeletons merged', () => {
  const scrub: Scrub = {
    status: 404,
    method: 'GET',
    path: '/payments/n1/merchant/acct_9/payments',
    basePath: '/v1',
    search: 'limit=5',
    ids: ['pay_77abc'],
    merchantIds: ['acct_9'],
    numbers: new Set([1042]),
    last4: 'x9Zq',
    prefix: 'sk_test_',
  };
  test('the target’s own values become placeholders; a record number is never kept', () => {
    const body = {
      error: 'Not Found',
      code: 'NOT_FOUND',
      at: '/v1/payments/n1/merchant/acct_9/payments?limit=5',
      merchant: 'no merchant acct_9',
      key: 'sk_test_****x9Zq',
      when: '2026-11-28T10:00:00Z',
      trace: '3f2a9b4c-1d2e-4f3a-9b8c-7d6e5f4a3b2c',
      seen: 'pay_77abc',
      n: 404,
      id: 1042,
    };
    const s = skeletonOf(body, scrub);
    const template = merge([s], () => null);
    assert.deepEqual(template, {
      error: '{{title}}',
      code: '{{CODE}}',
      at: '/v1{{path}}{{query}}',
      merchant: 'no merchant {{merchantId}}',
      key: '{{keyPrefix}}****{{keyLast4}}',
      when: '{{timestamp}}',
      trace: '{{uuid}}',
      seen: '{{requestId}}',
      n: '{{status}}',
      id: null,
    });
  });

  test('a value several answers share stays; one that varies takes the fallback; a page value is found by all', () => {
    const page = (n: number, more: boolean): Scrub => ({
      ...scrub,
      status: 200,
      page: { page: n, hasMore: more, count: 5 },
    });
    const a = skeletonOf({ p: 1, more: true, kind: 'list', note: 'x' }, page(1, true));
    const b = skeletonOf({ p: 2, more: false, kind: 'list', note: 'y' }, page(2, false));
    assert.deepEqual(
      merge([a, b], () => 'fallback'),
      { p: '{{page}}', more: '{{hasMore}}', kind: 'list', note: 'fallback' },
    );
  });

  test('statuses the reference names otherwise: its most frequent unknown one for the mock’s most frequent', () => {
    const mock = ['COMPLETED', 'PENDING', 'FAILED', 'REFUNDED', 'CANCELED'];
    assert.deepEqual(statusNames({ COMPLETED: 40, SETTLED: 3, AUTHORIZED: 9, FAILED: 2 }, mock), {
      PENDING: 'AUTHORIZED',
      REFUNDED: 'SETTLED',
    });
    assert.deepEqual(statusNames({ COMPLETED: 1 }, mock), {});
  });
});
