import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { type SchemaProblem, validateEnvelope, validatePayment } from '../../checks/schemas.ts';
import { isLiveKey, isTestKey } from '../../core/model/credentials.ts';
import apiKeySchema from '../../schemas/api-key.schema.json' with { type: 'json' };

const envelope = {
  success: true,
  message: 'ok',
  data: [{ status: 'COMPLETED', amount: 1 }],
  offset: 0,
  limit: 10,
  total: 1,
};

function paths(problems: SchemaProblem[]): string[] {
  return problems.map((p) => p.path);
}

describe('envelope schema (ENV-SCHEMA)', () => {
  test('a conforming envelope has no problem', () => {
    assert.deepEqual(validateEnvelope(envelope), []);
  });

  test('extra fields and an empty page are allowed', () => {
    assert.deepEqual(validateEnvelope({ ...envelope, data: [], total: 0, page: 1, links: { next: null } }), []);
  });

  test('records in data are not validated by the envelope schema', () => {
    assert.deepEqual(validateEnvelope({ ...envelope, data: [1, 'x', null] }), []);
  });

  const broken: Array<[string, unknown, string, string]> = [
    ['success as the string "true"', { ...envelope, success: 'true' }, '/success', '/success must be boolean'],
    ['success false', { ...envelope, success: false }, '/success', '/success must be true'],
    ['message missing', { ...envelope, message: undefined }, '/message', '/message is required'],
    ['total as the string "237"', { ...envelope, total: '237' }, '/total', '/total must be integer'],
    ['negative offset', { ...envelope, offset: -1 }, '/offset', '/offset must be >= 0'],
    ['limit 1.5', { ...envelope, limit: 1.5 }, '/limit', '/limit must be integer'],
    ['data not an array', { ...envelope, data: { 0: {} } }, '/data', '/data must be array'],
    ['null', null, '', '(value) must be object'],
  ];
  for (const [name, value, path, message] of broken) {
    test(`${name} is one problem: ${message}`, () => {
      // JSON round trip drops the undefined field, as a response body would.
      const problems = validateEnvelope(value === null ? null : JSON.parse(JSON.stringify(value)));
      assert.deepEqual(problems, [{ path, message }]);
    });
  }

  test('every broken field of one envelope is reported', () => {
    const problems = validateEnvelope({ success: 1, data: 'x', offset: 'a', limit: -2, total: 2.5 });
    assert.deepEqual(paths(problems).sort(), ['/data', '/limit', '/message', '/offset', '/success', '/total']);
  });
});

describe('payment record schema', () => {
  test('amount as a number or a decimal string passes', () => {
    for (const amount of [12.5, 0, -3, '12.50', '100', '-5.00']) {
      assert.deepEqual(validatePayment({ status: 'COMPLETED', amount }), [], `amount ${JSON.stringify(amount)}`);
    }
  });

  test('id may be a string or an integer, and extra fields are allowed', () => {
    assert.deepEqual(validatePayment({ id: 'pay_1', status: 'X', amount: 1, currency: 'EUR' }), []);
    assert.deepEqual(validatePayment({ id: 7, status: 'X', amount: 1 }), []);
  });

  test('a non-numeric amount string fails with a readable message', () => {
    assert.deepEqual(validatePayment({ status: 'COMPLETED', amount: 'abc' }), [
      { path: '/amount', message: '/amount must be number or decimal string' },
    ]);
  });

  test('amount strings that only look numeric fail', () => {
    for (const amount of ['', '1e3', '12.', '.5', ' 12', '12,50', 'NaN']) {
      assert.deepEqual(paths(validatePayment({ status: 'COMPLETED', amount })), ['/amount'], JSON.stringify(amount));
    }
  });

  test('missing status fails, and "at" prefixes the path', () => {
    assert.deepEqual(validatePayment({ amount: 1 }, '/data/3'), [
      { path: '/data/3/status', message: '/data/3/status is required' },
    ]);
  });

  test('a record that is not an object fails', () => {
    assert.deepEqual(paths(validatePayment('pay_1')), ['']);
    assert.deepEqual(paths(validatePayment([])), ['']);
  });

  test('a non-string status and an object id fail', () => {
    assert.deepEqual(paths(validatePayment({ id: {}, status: 1, amount: 1 })).sort(), ['/id', '/status']);
  });
});

describe('API key format (CFG-KEYS)', () => {
  test('test keys', () => {
    assert.equal(isTestKey('sk_test_MOCKsandboxKEY0a1b2c3d4e5f6'), true);
    assert.equal(isTestKey('sk_test_a-b_c'), true);
    assert.equal(isLiveKey('sk_test_MOCKsandboxKEY0a1b2c3d4e5f6'), false);
  });

  test('live keys', () => {
    assert.equal(isLiveKey('sk_live_MOCKliveKEY9z8y7x6w5v4u3'), true);
    assert.equal(isTestKey('sk_live_MOCKliveKEY9z8y7x6w5v4u3'), false);
  });

  const invalid = [
    'pk_test_abc',
    'sk_test_',
    'sk_live_',
    'SK_TEST_abc',
    'sk_Test_abc',
    'sk_prod_abc',
    'sk_sandbox_abc',
    'sk_test',
    'sk_test_abc def',
    ' sk_test_abc',
    'sk_test_abc\n',
    'sk_test_ab.c',
    '',
  ];
  for (const key of invalid) {
    test(`${JSON.stringify(key)} is neither a test nor a live key`, () => {
      assert.equal(isTestKey(key), false);
      assert.equal(isLiveKey(key), false);
    });
  }

  test('non-strings are not keys', () => {
    for (const value of [undefined, null, 42, ['sk_test_abc']]) {
      assert.equal(isTestKey(value), false);
      assert.equal(isLiveKey(value), false);
    }
  });

  test('isTestKey and isLiveKey agree with ajv on the schema, for any string', () => {
    const ajv = new Ajv2020({ strict: true });
    ajv.addSchema(apiKeySchema);
    const test = ajv.getSchema(`${apiKeySchema.$id}#/$defs/testKey`);
    const live = ajv.getSchema(`${apiKeySchema.$id}#/$defs/liveKey`);
    assert.ok(test && live);
    const keyish = fc
      .tuple(
        fc.constantFrom('sk_test_', 'sk_live_', 'sk_TEST_', 'sk_', ''),
        fc.string({ unit: 'binary', maxLength: 12 }),
      )
      .map(([prefix, rest]) => prefix + rest);
    fc.assert(
      fc.property(fc.oneof(keyish, fc.string({ unit: 'binary' }), fc.anything()), (value) => {
        assert.equal(isTestKey(value), test(value));
        assert.equal(isLiveKey(value), live(value));
      }),
      { numRuns: 2000 },
    );
  });
});
