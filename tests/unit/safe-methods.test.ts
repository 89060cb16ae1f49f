/**
 * The safe-methods door (reading "Methods"): the access matrix sends GET, HEAD and OPTIONS only; its methods phase
 * covers every method form × endpoint × credential class of each rule; HEAD and OPTIONS answers are judged by the
 * rule of GET's request, HEAD by GET's statuses or a refusal, OPTIONS by "no 5xx, no listing or record in a 2xx".
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { accessViolation, expectedAccess } from '../../checks/access-oracle.ts';
import { recordsCarried } from '../../checks/method-answers.ts';
import { ApiClient } from '../../core/client/http.ts';
import { openLedger } from '../../core/client/ledger.ts';
import { CANONICAL, keyModes } from '../../core/generate/access-cases.ts';
import { credentialClass, METHOD_FORMS, methodFormArb, PREFLIGHT_HEADERS } from '../../core/generate/safe-methods.ts';
import type { AccessCase, Credential, MerchantRole } from '../../core/model/access.ts';
import { PAYMENTS } from '../../core/model/collection.ts';
import type { KeySlot } from '../../core/model/credentials.ts';
import { isSafeMethod } from '../../core/model/endpoints.ts';
import { ACCESS_RULES } from '../../core/model/rules.ts';
import { sendCase } from '../../core/run/access-property.ts';
import { paymentsCases } from '../support/access.ts';
import { envelope, fakeExchange } from '../support/exchange.ts';
import { everyKeyTarget, testTarget } from '../support/target.ts';

const target = everyKeyTarget();
const modes = keyModes(target);
const key = (slot: KeySlot): Credential => ({ kind: 'key', slot });
const on = (credential: Credential, merchant: MerchantRole, extra: Partial<AccessCase> = {}): AccessCase => ({
  collection: PAYMENTS,
  credential,
  spelling: CANONICAL,
  endpoint: 'list',
  merchant,
  query: {},
  ...extra,
});
const formOf = (c: AccessCase) => (c.preflight ? 'CORS pre-flight' : (c.method ?? 'GET'));

describe('the access matrix is read-only', () => {
  for (const rule of ACCESS_RULES) {
    test(`${rule}: examples and 300 drawn cases use GET, HEAD or OPTIONS only`, () => {
      const cases = paymentsCases(target, rule);
      assert.ok(cases);
      const drawn = [...cases.examples, ...fc.sample(cases.arb, { seed: 11, numRuns: 300 })];
      const methods = new Set(drawn.map((c) => c.method ?? 'GET'));
      assert.ok([...methods].every(isSafeMethod), [...methods].join(' '));
      assert.deepEqual([...methods].sort(), ['GET', 'HEAD', 'OPTIONS']);
    });
  }
  test('the drawn forms are mostly GET, and every form is drawn', () => {
    const forms = fc.sample(methodFormArb, { seed: 3, numRuns: 600 }).map((f) => f.name);
    const share = forms.filter((f) => f === 'GET').length / forms.length;
    assert.ok(share > 0.55 && share < 0.8, `GET share ${share}`);
    for (const f of METHOD_FORMS) assert.ok(forms.includes(f.name), f.name);
  });
});

describe('the methods phase covers every method form × endpoint × credential class of each rule', () => {
  for (const rule of ACCESS_RULES) {
    test(rule, () => {
      const cases = paymentsCases(target, rule);
      assert.ok(cases);
      const drawnSpace = fc.sample(cases.arb, { seed: 5, numRuns: 400 });
      const endpoints = new Set(drawnSpace.map((c) => c.endpoint));
      const classes = new Set(drawnSpace.map((c) => credentialClass(c.credential)));
      const sent = new Set(
        cases.examples
          .filter((c) => c.method !== undefined)
          .map((c) => `${formOf(c)} ${c.endpoint} ${credentialClass(c.credential)}`),
      );
      for (const endpoint of endpoints) {
        for (const klass of classes) {
          for (const form of ['HEAD', 'OPTIONS'])
            assert.ok(sent.has(`${form} ${endpoint} ${klass}`), `${form} ${endpoint} ${klass}`);
          // A browser's pre-flight carries no credential: it is sent where the rule has the class "no header".
          assert.equal(sent.has(`CORS pre-flight ${endpoint} ${klass}`), klass === 'no header', `pre-flight ${klass}`);
        }
      }
      assert.match(cases.methods, /^methods phase: \d+ requests, every method form/);
      assert.equal(Number(/(\d+) requests/.exec(cases.methods)?.[1]), sent.size, 'the note counts what is sent');
    });
  }
});

describe('expectedAccess of HEAD: GET statuses or a refusal, a 2xx only where GET allows one', () => {
  const head = (c: AccessCase) => expectedAccess({ ...c, method: 'HEAD' }, modes);
  test('the rule is the rule of GET', () => {
    for (const [c, rule] of [
      [on({ kind: 'none' }, 'sandbox'), 'AUTH-MISSING'],
      [on(key('revoked'), 'sandbox'), 'AUTH-REVOKED'],
      [on(key('restricted'), 'sandbox'), 'AUTH-FORBIDDEN'],
      [on(key('live'), 'sandbox'), 'MODE-LIVE-SANDBOX'],
      [on(key('test'), 'live'), 'MODE-TEST-LIVE'],
      [on(key('test'), 'sandbox', { endpoint: 'status' }), 'AUTH-STATUS'],
    ] as const) {
      assert.equal(head(c).rule, rule);
      assert.equal(expectedAccess({ ...c, method: 'OPTIONS' }, modes).rule, rule);
    }
  });
  test('statuses', () => {
    const allowed = (c: AccessCase) => [200, 204, 401, 403, 404, 405, 500].filter(head(c).allowed);
    assert.deepEqual(allowed(on({ kind: 'none' }, 'sandbox')), [401, 404, 405]);
    assert.deepEqual(allowed(on(key('live'), 'sandbox')), [401, 404, 405]);
    assert.deepEqual(allowed(on(key('restricted'), 'sandbox')), [401, 403, 404, 405]);
    assert.deepEqual(allowed(on(key('test'), 'sandbox')), [200, 401, 404, 405]);
    assert.deepEqual(allowed(on(key('test'), 'sandbox', { endpoint: 'status' })), [200, 204, 401, 404, 405]);
    assert.match(head(on(key('live'), 'sandbox')).what, /^the live key .* on HEAD to the payments list/);
  });
  test('a HEAD answer is judged by its status: its Content-Length is its GET body length, not a violation', () => {
    const e = { ...fakeExchange({ status: 200, headers: { 'content-length': '5120' } }), method: 'HEAD' as const };
    assert.equal(accessViolation(head(on(key('test'), 'sandbox')), e, {}), undefined);
    const v = accessViolation(head(on(key('live'), 'sandbox')), e, {});
    assert.equal(v?.rule, 'MODE-LIVE-SANDBOX');
  });
});

describe('expectedAccess of OPTIONS: any status but a 5xx, and no listing or record in a 2xx', () => {
  const options = (c: AccessCase) => expectedAccess({ ...c, method: 'OPTIONS', preflight: true }, modes);
  const listing = envelope({ n: 3 });
  const cases: Array<[AccessCase, string]> = [
    [on({ kind: 'none' }, 'sandbox'), 'AUTH-MISSING'],
    [on(key('restricted'), 'sandbox'), 'AUTH-FORBIDDEN'],
    [on(key('live'), 'sandbox'), 'MODE-LIVE-SANDBOX'],
    [on(key('test'), 'sandbox'), 'MODE-TEST-SANDBOX'],
  ];
  test('CORS middleware, Allow answers and refusals pass, whatever the credential', () => {
    for (const [c] of cases) {
      for (const e of [
        fakeExchange({ status: 204, headers: { allow: 'GET, HEAD, OPTIONS', 'access-control-allow-origin': '*' } }),
        fakeExchange({ status: 200, text: 'GET, HEAD, OPTIONS', headers: { 'content-type': 'text/html' } }),
        fakeExchange({ status: 200, json: { methods: ['GET'], status: 'ok' } }),
        fakeExchange({ status: 405, json: { success: false, message: 'Method not allowed' } }),
        fakeExchange({ status: 401 }),
        fakeExchange({ status: 302, headers: { location: '/' } }),
      ]) {
        assert.equal(accessViolation(options(c), e, {}), undefined, `${JSON.stringify(c.credential)} ${e.status}`);
      }
    }
  });
  test('a 2xx carrying a listing or a record fails the rule of GET; a 5xx fails it too', () => {
    for (const [c, rule] of cases) {
      for (const e of [
        fakeExchange({ status: 200, json: listing }),
        fakeExchange({ status: 200, json: { result: { items: [{ id: 7, status: 'COMPLETED', amount: '12.50' }] } } }),
        fakeExchange({ status: 503, json: { success: false } }),
      ]) {
        const v = accessViolation(options(c), e, {});
        assert.equal(v?.rule, rule, `${rule} ${e.status}`);
        assert.match(v?.expected ?? '', /OPTIONS \(a CORS pre-flight\)/);
      }
    }
    const v = accessViolation(options(cases[0]?.[0] as AccessCase), fakeExchange({ status: 200, json: listing }), {});
    assert.match(v?.received ?? '', /carries a listing: 3 record\(s\) in data, total 3/);
  });
});

describe('recordsCarried', () => {
  test('a listing envelope, records anywhere; not an empty listing, metadata or text', () => {
    assert.match(recordsCarried(envelope({ n: 2 })) ?? '', /^a listing: 2 record/);
    assert.equal(recordsCarried([{ status: 'PENDING', amount: 1 }]), '1 payment record(s)');
    assert.equal(recordsCarried(envelope({ n: 0 })), undefined);
    // Django REST framework's OPTIONS metadata: field descriptions, not records.
    const metadata = {
      name: 'Payments',
      actions: { GET: { status: { type: 'choice' }, amount: { type: 'decimal' } } },
    };
    assert.equal(recordsCarried(metadata), undefined);
    assert.equal(recordsCarried(undefined), undefined);
    assert.equal(recordsCarried('GET, HEAD'), undefined);
  });
});

describe('sendCase sends the method, and a pre-flight with its CORS headers and no Authorization', () => {
  test('over HTTP', async () => {
    const seen: Array<{ method: string | undefined; headers: IncomingHttpHeaders }> = [];
    const server = createServer((req, res) => {
      seen.push({ method: req.method, headers: req.headers });
      res.writeHead(204).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const t = testTarget({ ...target, baseURL: `http://127.0.0.1:${port}` });
    const api = new ApiClient(t, openLedger(), undefined);
    try {
      await sendCase(api, t, on({ kind: 'none' }, 'sandbox', { method: 'OPTIONS', preflight: true }));
      await sendCase(api, t, on(key('test'), 'sandbox', { method: 'HEAD', endpoint: 'status' }));
      await sendCase(api, t, on(key('test'), 'sandbox'));
    } finally {
      await api.close();
      server.close();
    }
    assert.deepEqual(
      seen.map((s) => s.method),
      ['OPTIONS', 'HEAD', 'GET'],
    );
    const [preflight, headed] = seen;
    for (const [name, value] of Object.entries(PREFLIGHT_HEADERS)) assert.equal(preflight?.headers[name], value);
    assert.equal(preflight?.headers.authorization, undefined);
    assert.equal(headed?.headers.authorization, `Bearer ${target.keys.test}`);
    assert.equal(headed?.headers['content-type'], 'application/json', 'the documented header of /merchant/status');
  });
});
