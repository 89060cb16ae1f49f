/**
 * The watcher reads every answer whole (core/run/answer-content.ts): every header and every text also as a client may
 * decode it, the raw text of a JSON body where parsing dropped objects; and it learns no record from an answer to a
 * request that carried inputs the spec does not document.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { provenanceViolations } from '../../checks/provenance.ts';
import { asKey, NO_AUTH } from '../../core/model/credentials.ts';
import type { Exchange } from '../../core/model/exchange.ts';
import { readings } from '../../core/model/key-forms.ts';
import { paymentsPath } from '../../core/model/listing.ts';
import { contentOf } from '../../core/run/answer-content.ts';
import { AnswerWatch, foldMerchantId } from '../../core/run/watch.ts';
import { fakeExchange } from '../support/exchange.ts';
import { testTarget } from '../support/target.ts';

const target = testTarget({
  keys: { test: 'sk_test_UnitTestKey01', live: 'sk_live_UnitLiveKey01', revoked: 'sk_test_UnitRevoked001' },
  merchants: { sandbox: 'msb_1', live: 'mlv_1', otherSandbox: 'msb_2' },
});
const pay = (id: string) => ({ id, merchantId: 'msb_1', amount: 1200, currency: 'EUR', status: 'COMPLETED' });
const page = (data: unknown[]) => ({ success: true, message: 'OK', data, offset: 0, limit: 10, total: data.length });
const b64 = (s: string) => Buffer.from(s).toString('base64');

const refusal = (headers: Record<string, string>, text = '{"success":false}'): Exchange => ({
  ...fakeExchange({ status: 401, text, json: JSON.parse(text), headers }),
  auth: NO_AUTH,
  authLabel: 'no Authorization header',
});

describe('readings: a text as a client may decode it', () => {
  test('Base64, Base64url and hex runs that decode to text; escapes that wrote a good part of it', () => {
    const json = JSON.stringify(pay('pay_test_0001'));
    const hows = (t: string) => readings(t).map((r) => r.how);
    assert.deepEqual(hows(`trace ${b64(json)}`), ['Base64-decoded']);
    assert.ok(readings(Buffer.from(json).toString('base64url')).some((r) => r.text === json));
    assert.deepEqual(hows(Buffer.from(json).toString('hex')), ['hex-decoded']);
    assert.deepEqual(hows(encodeURIComponent(json)), ['percent-decoded']);
    assert.equal(readings(b64(json))[0]?.text, json);
  });

  test('a stray escape (amount=1200), bytes that are no text, a short run: no reading', () => {
    assert.deepEqual(readings('id=pay_live_0009 amount=1200 currency=EUR'), []);
    assert.deepEqual(
      readings(
        Buffer.from([0, 1, 2, 250, 251, 252, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18]).toString(
          'base64',
        ),
      ),
      [],
    );
    assert.deepEqual(readings('abc'), []);
  });
});

describe('contentOf: what an answer carried, read whole', () => {
  test('a record Base64-encoded in a header of a refusal, and percent-encoded in another', () => {
    const r = pay('pay_test_0001');
    const found = contentOf(
      refusal({
        'x-debug': b64(JSON.stringify(r)),
        'x-trace': encodeURIComponent(JSON.stringify(pay('pay_test_0002'))),
      }),
      { body: true },
    );
    assert.deepEqual(
      found.objects.map((o) => [o.where, o.value.id]),
      [
        ['header x-debug (Base64-decoded)', 'pay_test_0001'],
        ['header x-trace (percent-decoded)', 'pay_test_0002'],
      ],
    );
  });

  test('a JSON body whose parse dropped records (a key given twice): the raw text is read too', () => {
    const text = `{"success":false,"data":[${JSON.stringify(pay('pay_test_0003'))}],"data":[]}`;
    const found = contentOf(refusal({}, text), { body: true });
    assert.deepEqual(
      found.objects.map((o) => [o.where, o.value.id]),
      [['body (as sent, before parsing)', 'pay_test_0003']],
    );
  });

  test('a record as text, hex-encoded in a header: a text to read for a run of fields', () => {
    const text = 'id=pay_test_0004 amount=1200 status=COMPLETED';
    const found = contentOf(refusal({ 'x-last': Buffer.from(text).toString('hex') }), { body: true });
    assert.ok(found.texts.some((t) => t.where === 'header x-last (hex-decoded)' && t.text === text));
  });
});

describe('the watcher over such answers', () => {
  test('a record in an encoded header of a refusal breaks the refusal rule, judged by provenance', () => {
    const watch = new AnswerWatch(target, 'checks');
    const data = [pay('pay_test_0001'), pay('pay_test_0002')];
    const learned = watch.see(fakeExchange({ path: paymentsPath('msb_1'), json: page(data) }));
    assert.ok(learned.learned);
    const leak = watch.see({ ...refusal({ 'x-debug': b64(JSON.stringify(data[1])) }), path: paymentsPath('msb_1') });
    const { violations } = provenanceViolations([learned, leak], 'AUTH-MISSING');
    assert.equal(violations.length, 1);
    assert.match(violations[0]?.received ?? '', /header x-debug \(Base64-decoded\)/);
  });

  test('an answer to a request with inputs the spec does not document is judged, never learned from', () => {
    const watch = new AnswerWatch(target, 'checks');
    const e = fakeExchange({ path: paymentsPath('msb_1'), json: page([pay('pay_test_0005')]) });
    const seen = watch.see({ ...e, auth: asKey('test'), extra: { query: [['merchant_id', 'msb_2']] } });
    assert.equal(seen.learned, undefined);
    assert.deepEqual(
      seen.objects?.map((o) => o.value.id),
      ['pay_test_0005'],
    );
  });

  test('a merchant id with a control or format character folds to the merchant (a sanitising lookup)', () => {
    assert.equal(foldMerchantId('msb_1%00'), 'msb_1');
    assert.equal(foldMerchantId('%E2%80%8Bmsb_1'), 'msb_1');
    assert.equal(foldMerchantId('ms%01b_1'), 'msb_1');
  });
});
