import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { asKey } from '../../core/model/credentials.ts';
import type { Exchange } from '../../core/model/exchange.ts';
import { rule } from '../../core/model/rules.ts';
import { registerSecret } from '../../core/model/secrets.ts';
import {
  assertNoViolation,
  excerpt,
  formatViolation,
  RuleViolation,
  type Violation,
} from '../../core/model/verdict.ts';

const KEY = 'sk_test_ViolationCANARYabcdefgh12';
registerSecret(KEY);
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

function exchange(over: Partial<Exchange> = {}): Exchange {
  const path = over.path ?? '/payments/n1/merchant/msb_1/payments';
  const url = over.url ?? `http://127.0.0.1:3417${path}?offset=230&limit=10`;
  return {
    method: 'GET',
    url,
    path,
    query: [
      ['offset', '230'],
      ['limit', '10'],
    ],
    sent: { accept: 'application/json' },
    auth: asKey('test'),
    authLabel: 'Authorization: Bearer $API_TEST_KEY',
    status: 200,
    headers: { 'content-type': 'application/json' },
    text: '{"success":true}',
    json: { success: true },
    curl: `curl -sS -g -i -H "Authorization: Bearer $API_TEST_KEY" '${url}'`,
    keyLeak: undefined,
    ...over,
  };
}

const SIZE: Violation = {
  rule: 'PAG-SIZE',
  expected: '7 records (offset 230, limit 10, total 237)',
  received: '6 records',
};

describe('formatViolation', () => {
  test('rule line, Expected, Received', () => {
    assert.equal(
      formatViolation(SIZE),
      [
        'PAG-SIZE violated (§4.2 r1): `data.length` = max(0, min(limit, total - offset))',
        '  Expected: 7 records (offset 230, limit 10, total 237)',
        '  Received: 6 records',
      ].join('\n'),
    );
  });

  test('counterexample and the curl lines of the exchange and related exchanges', () => {
    const e = exchange();
    const r = exchange({ curl: "curl -sS -g -i 'http://127.0.0.1:3417/second'" });
    const text = formatViolation(
      { ...SIZE, exchange: e, related: [r] },
      '(fast-check seed 1712 path "3:1"): offset=230',
    );
    assert.equal(
      text,
      [
        'PAG-SIZE violated (§4.2 r1): `data.length` = max(0, min(limit, total - offset))',
        '  Expected: 7 records (offset 230, limit 10, total 237)',
        '  Received: 6 records',
        '  Counterexample (fast-check seed 1712 path "3:1"): offset=230',
        'Reproduce with:',
        `  ${e.curl}`,
        "  curl -sS -g -i 'http://127.0.0.1:3417/second'",
      ].join('\n'),
    );
  });

  test('at most 3 curl lines', () => {
    const related = [1, 2, 3, 4].map((n) => exchange({ curl: `curl r${n}` }));
    const text = formatViolation({ ...SIZE, related });
    assert.ok(text.endsWith('Reproduce with:\n  curl r1\n  curl r2\n  curl r3'));
    assert.ok(!text.includes('curl r4'));
  });

  test('an advisory rule is rendered the same way with its own section', () => {
    const text = formatViolation({ rule: 'ADV-SCHEME', expected: '401', received: 'HTTP 200' });
    assert.equal(text.split('\n')[0], `ADV-SCHEME violated (§5.1): ${rule('ADV-SCHEME').requirement}`);
  });

  test('Expected/Received are flattened to one line and capped at 600 characters', () => {
    const text = formatViolation({
      rule: 'PAG-TOTAL',
      expected: 'line one\n   line two\n\nthree',
      received: 'x'.repeat(700),
    });
    const lines = text.split('\n');
    assert.equal(lines.length, 3);
    assert.equal(lines[1], '  Expected: line one line two three');
    assert.equal(lines[2], `  Received: ${'x'.repeat(600)}…`);
  });

  test('secrets are redacted everywhere in the message', () => {
    const text = formatViolation(
      {
        rule: 'KEY-SECRET',
        expected: 'no key in the body',
        received: `body has ${KEY} and ${b64(KEY)}`,
        exchange: exchange({ curl: `curl -H 'Authorization: Bearer ${KEY}' 'http://h/'` }),
      },
      `(seed 1) key=${KEY.toUpperCase()}`,
    );
    assert.ok(!text.includes(KEY));
    assert.ok(!text.includes(b64(KEY)));
    assert.ok(!text.toLowerCase().includes(KEY.toLowerCase()));
    assert.ok(text.includes('  Received: body has [REDACTED] and [REDACTED]'));
    assert.ok(text.includes("curl -H 'Authorization: Bearer [REDACTED]' 'http://h/'"));
  });

  test('a Base64 key cut by the 600-character cap leaks no part of it', () => {
    const encoded = b64(KEY);
    const text = formatViolation({ rule: 'KEY-SECRET', expected: '-', received: `${'x'.repeat(580)}${encoded}` });
    assert.ok(!text.includes(encoded.slice(0, 20)), 'the first 20 Base64 characters of the key are printed');
  });
});

describe('RuleViolation', () => {
  test('is an Error whose message is the formatted violation and whose stack is only that message', () => {
    const error = new RuleViolation(SIZE);
    assert.ok(error instanceof Error);
    assert.equal(error.name, 'RuleViolation');
    assert.equal(error.message, formatViolation(SIZE));
    assert.equal(error.stack, `RuleViolation: ${formatViolation(SIZE)}`);
    assert.equal(error.violation, SIZE);
    assert.equal(error.counterexample, undefined);
  });

  test('a counterexample and its replay command are rendered on their own lines', () => {
    const error = new RuleViolation(SIZE).withCounterexample(
      '(seed 9): offset=1',
      'FC_SEED=9 FC_PATH=0 npm run conformance',
    );
    assert.equal(error.counterexample, '(seed 9): offset=1');
    assert.ok(
      error.message.includes(
        '\n  Counterexample (seed 9): offset=1\n  Replay: FC_SEED=9 FC_PATH=0 npm run conformance',
      ),
    );
  });

  test('withCounterexample re-renders message and stack and returns the same error', () => {
    const error = new RuleViolation(SIZE);
    const same = error.withCounterexample('(fast-check seed 5 path "0"): limit=3');
    assert.equal(same, error);
    assert.equal(error.message, formatViolation(SIZE, '(fast-check seed 5 path "0"): limit=3'));
    assert.equal(error.stack, `RuleViolation: ${error.message}`);
    error.withCounterexample('(other)');
    assert.ok(error.message.includes('Counterexample (other)'));
    assert.ok(!error.message.includes('limit=3'));
  });

  test('a violation with a key in it yields a message and stack without the key', () => {
    const error = new RuleViolation({ rule: 'KEY-SECRET', expected: '-', received: KEY });
    assert.ok(!error.message.includes(KEY));
    assert.ok(!error.stack?.includes(KEY));
  });
});

describe('assertNoViolation', () => {
  test('does nothing for undefined', () => {
    assert.doesNotThrow(() => assertNoViolation(undefined));
  });

  test('throws the violation as a RuleViolation', () => {
    assert.throws(
      () => assertNoViolation(SIZE),
      (error: unknown) => {
        assert.ok(error instanceof RuleViolation);
        assert.equal(error.violation, SIZE);
        assert.match(error.message, /^PAG-SIZE violated \(§4\.2 r1\)/);
        return true;
      },
    );
  });
});

describe('excerpt', () => {
  test('status and the body with whitespace collapsed', () => {
    assert.equal(
      excerpt(exchange({ status: 400, text: '{\n  "error":   "bad\tlimit"\n}\n' })),
      'HTTP 400 { "error": "bad limit" }',
    );
  });

  test('an empty (or blank) body', () => {
    assert.equal(excerpt(exchange({ status: 204, text: '' })), 'HTTP 204 (empty body)');
    assert.equal(excerpt(exchange({ status: 401, text: ' \n\t ' })), 'HTTP 401 (empty body)');
  });

  test('cut at max characters with an ellipsis (default 160)', () => {
    assert.equal(excerpt(exchange({ text: 'a'.repeat(200) })), `HTTP 200 ${'a'.repeat(160)}…`);
    assert.equal(excerpt(exchange({ text: 'abcdef' }), 3), 'HTTP 200 abc…');
    assert.equal(excerpt(exchange({ text: 'abc' }), 3), 'HTTP 200 abc');
  });

  test('the key and its forms are redacted', () => {
    const text = `{"echo":"${KEY}","b64":"${b64(KEY)}","other":"sk_live_unregistered9"}`;
    assert.equal(
      excerpt(exchange({ text }), 500),
      'HTTP 200 {"echo":"[REDACTED]","b64":"[REDACTED]","other":"[REDACTED]"}',
    );
  });

  test('a key cut by the length cap is still redacted (key shape)', () => {
    const out = excerpt(exchange({ text: `${'x'.repeat(150)}${KEY}` }));
    assert.equal(out, `HTTP 200 ${'x'.repeat(150)}[REDACTED]`);
    assert.ok(!out.includes('sk_'), out);
  });

  test('a Base64 key cut by the length cap leaks no part of it', () => {
    const encoded = b64(KEY);
    const out = excerpt(exchange({ text: `${'x'.repeat(130)}${encoded}` }));
    assert.ok(!out.includes(encoded.slice(0, 20)), `excerpt leaks part of the Base64 key: ${out.slice(-40)}`);
  });
});
