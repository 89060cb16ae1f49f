import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { findKeyLeak } from '../../core/client/leak.ts';

const KEY = 'sk_test_4eC39HqLyjWDarjtT1zdp7dc';
const SECRET = KEY.slice('sk_test_'.length); // 24 characters
const body = (text: string) => ({ headers: {}, text });
const header = (value: string) => ({ headers: { 'x-key-hint': value }, text: '{}' });

describe('findKeyLeak: the whole key, encoded', () => {
  test('as is, URL-encoded and Base64-encoded, in a body or a header', () => {
    assert.equal(findKeyLeak(KEY, body(`{"message":"bad key ${KEY}"}`)), 'body');
    assert.equal(findKeyLeak(KEY, header(KEY)), 'header x-key-hint');
    assert.equal(findKeyLeak(`${KEY}/+`, body(encodeURIComponent(`${KEY}/+`))), 'body (percent-decoded)');
    assert.equal(findKeyLeak(KEY, body(Buffer.from(`user=${KEY}`).toString('base64'))), 'body (Base64)');
  });
});

describe('findKeyLeak: what a client decodes', () => {
  const escaped = [...KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
  test('a JSON string with every character escaped (\\u0073k_…)', () => {
    assert.ok(!body(`{"message":"${escaped}"}`).text.includes(KEY));
    assert.equal(findKeyLeak(KEY, body(`{"message":"${escaped}"}`)), 'body (backslash escapes decoded)');
    assert.equal(findKeyLeak(KEY, body(`{"${escaped}":1}`)), 'body (backslash escapes decoded)', 'as a key too');
  });
  test('most of the key, JSON-escaped', () => {
    const most = [...KEY.slice(0, -4)].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    assert.match(findKeyLeak(KEY, body(`{"m":"${most}****"}`)) ?? '', /^body \(backslash escapes decoded\) \(20 of/);
  });
  test('percent-encoded in a header (a Location) or a body, every character', () => {
    const every = [...KEY].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('');
    assert.equal(findKeyLeak(KEY, header(`https://x.example/?k=${every}`)), 'header x-key-hint (percent-decoded)');
    assert.equal(findKeyLeak(KEY, body(`key=${every}`)), 'body (percent-decoded)');
  });
  test('an escape that decodes to nothing of the key is no leak; escapes in a text that is not JSON decode too', () => {
    assert.equal(findKeyLeak(KEY, body('{"m":"\\u0041\\n"}')), undefined);
    assert.equal(findKeyLeak(KEY, body(`not json \\ ${escaped}`)), 'body (backslash escapes decoded)');
  });
  test('an escape inside an escape: a JSON string in a JSON string, a character reference in a JSON string', () => {
    const inner = `{"m":"${escaped}"}`;
    assert.equal(
      findKeyLeak(KEY, body(JSON.stringify({ wrapped: inner }))),
      'body (backslash escapes decoded, then backslash escapes decoded)',
    );
    const refs = [...KEY].map((c) => `\\u0026#${c.charCodeAt(0)};`).join('');
    assert.equal(
      findKeyLeak(KEY, body(`{"m":"${refs}"}`)),
      'body (backslash escapes decoded, then HTML character references decoded)',
    );
  });
});

describe('findKeyLeak: most of the key (reading: "not as a large part of it")', () => {
  test('all but the last four characters masked', () => {
    assert.match(findKeyLeak(KEY, body(`Invalid API key ${KEY.slice(0, -4)}****`)) ?? '', /^body \(20 of the key's 24/);
  });
  test('the first two thirds, then cut', () => {
    const shown = KEY.slice(0, Math.floor((KEY.length * 2) / 3));
    assert.match(findKeyLeak(KEY, header(`${shown}…`)) ?? '', /^header x-key-hint \(\d+ of the key's 24/);
  });
  test('masked in the middle: half of the secret at its own positions is enough', () => {
    const masked = `sk_test_${SECRET.slice(0, 6)}${'*'.repeat(12)}${SECRET.slice(18)}`;
    assert.match(findKeyLeak(KEY, body(masked)) ?? '', /12 of the key's 24/);
  });
  test('any half of the secret shown alone is a leak, wherever it starts (every 20- to 40-character secret)', () => {
    for (let n = 20; n <= 40; n++) {
      const key = `sk_live_${'Zq8Wx3Lm5Pn7Rt2Vb4Kc6Hd9Jf1Gs0Ay'.repeat(2).slice(0, n)}`;
      const secret = key.slice(8);
      const half = Math.ceil(n / 2);
      for (let from = 0; from + half <= n; from++) {
        const shown = `sk_live_${'*'.repeat(from)}${secret.slice(from, from + half)}${'*'.repeat(n - from - half)}`;
        assert.ok(findKeyLeak(key, body(`key ${shown}`)), `${n} characters, the half from ${from}`);
      }
    }
  });
  test('a short secret (a key truncated to 13 characters) needs 10 of them shown: a word it shares with an echoed id is no quote', () => {
    const truncated = 'sk_test_MOCKsandboxKE';
    assert.equal(findKeyLeak(truncated, body('{"merchantId":"msb_7Hq2sandbox01","key":"sk_test_…boxKE"}')), undefined);
    assert.ok(findKeyLeak(truncated, body(`key ${truncated.slice(0, -3)}***`)));
  });
  test('a hint of the last four characters, the prefix alone, or a few characters are not a leak', () => {
    assert.equal(findKeyLeak(KEY, body(`your key ends in ${KEY.slice(-4)}`)), undefined);
    assert.equal(findKeyLeak(KEY, body('keys look like sk_test_…')), undefined);
    assert.equal(
      findKeyLeak('sk_test_', body('keys look like sk_test_…')),
      undefined,
      'a presented prefix is no secret',
    );
    assert.equal(findKeyLeak(KEY, body(`sk_test_${SECRET.slice(0, 8)}…`)), undefined);
    assert.equal(findKeyLeak(KEY, body(`${'*'.repeat(18)}${SECRET.slice(-6)}`)), undefined);
  });
  test('a response full of one anchor stays cheap and right', () => {
    const noisy = `${SECRET.slice(0, 6)} `.repeat(10_000);
    assert.equal(findKeyLeak(KEY, body(noisy)), undefined);
  });
});
