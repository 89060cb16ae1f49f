import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { REDACTED, redact, redactError, registerSecret } from '../../core/model/secrets.ts';

/** Whether redaction finds something to hide in `text`. */
const containsSecret = (text: string) => redact(text) !== text;

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

// Not key-shaped, so only the registered-secret path (not the sk_ pattern) can catch it.
const SECRET = 'Hunter2/Plus+Secret=Value';
registerSecret(SECRET);

describe('redact', () => {
  test('REDACTED marker', () => {
    assert.equal(REDACTED, '[REDACTED]');
  });

  for (const [form, value] of [
    ['as is', SECRET],
    ['lowercase', SECRET.toLowerCase()],
    ['uppercase', SECRET.toUpperCase()],
    ['base64', b64(SECRET)],
    ['base64 of key: (Basic auth)', b64(`${SECRET}:`)],
    ['url-encoded', encodeURIComponent(SECRET)],
  ] as const) {
    test(`removes a registered secret in its ${form} form`, () => {
      assert.equal(redact(`before ${value} after`), 'before [REDACTED] after');
      assert.equal(containsSecret(`x${value}x`), true);
    });
  }

  test('replaces every occurrence', () => {
    assert.equal(redact(`${SECRET}|${SECRET}|${b64(SECRET)}`), '[REDACTED]|[REDACTED]|[REDACTED]');
  });

  test('the Basic-auth Base64 form is replaced whole, not half (longest secret first)', () => {
    const basic = b64(`${SECRET}:`);
    assert.equal(redact(`Authorization: Basic ${basic}`), 'Authorization: Basic [REDACTED]');
  });

  for (const [i, key] of [
    'sk_test_NeverRegistered123',
    'sk_live_NeverRegistered456',
    'SK_TEST_UPPERCASED789',
    'Sk_LiVe_mixedCase_-x',
    'sk_test_',
  ].entries()) {
    // The title goes into reports, so it names the case, never the key-shaped value.
    test(`removes anything key-shaped even if never registered (case ${i + 1})`, () => {
      assert.equal(redact(`key=${key};`), 'key=[REDACTED];');
      assert.equal(containsSecret(`key=${key};`), true);
    });
  }

  test('a key-shaped value is cut at the first character outside [A-Za-z0-9_-]', () => {
    assert.equal(redact('"sk_test_abc123","next"'), '"[REDACTED]","next"');
    assert.equal(redact('Bearer sk_live_abc.def'), 'Bearer [REDACTED].def');
  });

  test('a registered key that begins a longer key-shaped token takes the whole token with it', () => {
    registerSecret('sk_test_registeredPrefix01');
    assert.equal(redact('x sk_test_registeredPrefix01AndMore9 y'), `x ${REDACTED} y`);
    assert.equal(redact('x sk_test_registeredPrefix01 y'), `x ${REDACTED} y`);
  });

  test('text without a secret is unchanged', () => {
    const text = 'GET /payments/n1/merchant/msb_1/payments?offset=0&limit=10 -> 200 (sk test not a key)';
    assert.equal(redact(text), text);
    assert.equal(containsSecret(text), false);
    assert.equal(redact(''), '');
  });

  test('secrets shorter than 4 characters (and undefined) are not registered', () => {
    registerSecret('abc');
    registerSecret(undefined);
    registerSecret('');
    assert.equal(redact('abc abc'), 'abc abc');
    assert.equal(containsSecret('abc'), false);
  });

  test('a key derived from a registered one (its mode prefix swapped) is redacted in an escaped spelling too', () => {
    const key = 'sk_test_DerivedFromThis0a1b2c';
    registerSecret(key);
    const swapped = key.replace('sk_test_', 'sk_live_');
    const html = [...swapped].map((c) => `&#${c.charCodeAt(0)};`).join('');
    const twice = encodeURIComponent(
      encodeURIComponent(swapped).replace(/[A-Za-z0-9]/g, (c) => `%${c.charCodeAt(0).toString(16)}`),
    );
    for (const spelled of [html, twice]) {
      const out = redact(`<code>${spelled}</code>`);
      assert.ok(out.includes(REDACTED), 'something redacted');
      assert.ok(!out.toLowerCase().includes('derivedfromthis'), 'the random part gone');
      assert.ok(!/DerivedFromThis|44.?65.?72/i.test(decodeURIComponent(decodeURIComponent(out))), 'no spelling left');
    }
  });

  test('most of a registered key quoted (the rest masked or cut), plain or escaped, is redacted: what KEY-SECRET calls a leak', () => {
    const key = 'sk_live_QuotedHalfOfThis9z8y7x';
    registerSecret(key);
    const masked = `${key.slice(0, -6)}******`;
    const cut = key.slice(0, 8 + 13);
    for (const quoted of [
      masked,
      cut,
      masked.replace('sk_live_', ''),
      [...masked].map((c) => `&#${c.charCodeAt(0)};`).join(''),
    ]) {
      const out = redact(`key ${quoted} refused`);
      assert.ok(out.includes(REDACTED), 'something redacted');
      assert.ok(!out.toLowerCase().includes('quotedhalf') && !out.includes('&#81;'), 'the quote gone');
    }
    const hint = `key ending ${key.slice(-4)}`;
    assert.equal(redact(hint), hint, 'the last four characters are a hint, not a quote');
  });

  test('a 4-character secret is registered', () => {
    registerSecret('Zq9!');
    assert.equal(redact('x Zq9! y'), 'x [REDACTED] y');
  });
});

describe('containsSecret', () => {
  test('repeated calls give the same answer (no stale lastIndex from the global pattern)', () => {
    const text = 'prefix padding padding sk_test_repeat123';
    for (let i = 0; i < 5; i++) assert.equal(containsSecret(text), true, `call ${i}`);
    assert.equal(containsSecret('clean'), false);
    assert.equal(containsSecret('sk_live_x'), true);
    // redact uses the same global pattern: it must not disturb containsSecret afterwards.
    redact('sk_test_aaa sk_test_bbb');
    assert.equal(containsSecret('a sk_test_ccc'), true);
  });
});

describe('redactError', () => {
  test('redacts message and stack in place and returns the same error', () => {
    const error = new Error(`request with ${SECRET} and sk_test_inError99 failed`);
    const out = redactError(error);
    assert.equal(out, error);
    assert.equal(error.message, 'request with [REDACTED] and [REDACTED] failed');
    assert.ok(error.stack);
    assert.ok(!error.stack.includes(SECRET));
    assert.ok(!error.stack.includes('sk_test_inError99'));
    assert.ok(error.stack.includes('request with [REDACTED] and [REDACTED] failed'));
  });

  test('follows the cause chain', () => {
    const root = new Error(`root ${b64(SECRET)}`);
    const mid = new Error('mid sk_live_midCause1', { cause: root });
    const top = new Error('top', { cause: mid });
    redactError(top);
    assert.equal(mid.message, 'mid [REDACTED]');
    assert.equal(root.message, 'root [REDACTED]');
    assert.ok(!root.stack?.includes(b64(SECRET)));
  });

  test('non-errors are returned unchanged', () => {
    assert.equal(redactError('sk_test_string1'), 'sk_test_string1');
    const obj = { message: 'sk_test_obj1' };
    assert.equal(redactError(obj), obj);
    assert.equal(obj.message, 'sk_test_obj1');
    assert.equal(redactError(undefined), undefined);
  });

  test('an error whose cause chain loops back is redacted without overflowing the stack', () => {
    const a = new Error('a sk_test_cycleA1');
    const b = new Error('b sk_test_cycleB2', { cause: a });
    (a as { cause?: unknown }).cause = b;
    redactError(a);
    assert.equal(a.message, 'a [REDACTED]');
    assert.equal(b.message, 'b [REDACTED]');
  });
});

describe('redact: forms a hostile answer may quote a key in', () => {
  test('every character JSON-escaped or percent-encoded, in either case of hex', () => {
    const key = 'sk_test_EscapedFORMSabc123456';
    registerSecret(key);
    const code = (c: string) => c.charCodeAt(0).toString(16);
    for (const form of [
      [...key].map((c) => `\\u${code(c).padStart(4, '0')}`).join(''),
      [...key].map((c) => `\\u${code(c).padStart(4, '0').toUpperCase()}`).join(''),
      [...key].map((c) => `%${code(c)}`).join(''),
      [...key].map((c) => `%${code(c).toUpperCase()}`).join(''),
    ]) {
      assert.equal(redact(`x ${form} y`), `x ${REDACTED} y`, form.slice(0, 12));
    }
  });
});
