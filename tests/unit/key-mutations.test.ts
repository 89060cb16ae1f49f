import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, test } from 'node:test';
import {
  BASIC_CREDENTIALS,
  keyMutations,
  neverCreatedId,
  unknownKeyOfValidFormat,
} from '../../core/generate/key-mutations.ts';
import { isLiveKey, isTestKey, prefixLength } from '../../core/model/credentials.ts';
import mockTarget from '../../mock/identity.json' with { type: 'json' };

/** Made-up keys covering the shapes that make a mutation inapplicable (no case to change, `_` at the ends). */
const KEYS = [
  mockTarget.keys.test,
  mockTarget.keys.live,
  'sk_test_ABCDEF0123456789',
  'sk_test_abcdef9876543210',
  'sk_live_0123456789',
  'sk_live_ab-cd_ef_',
  'sk_test_Z',
];

/** Evaluates a shell form exactly where curl lines put it: inside double quotes, with the key in a variable. */
function evalShell(form: string, key: string): string {
  return execFileSync('sh', ['-c', `printf %s "${form}"`], {
    env: { PATH: process.env.PATH, API_TEST_KEY: key },
    encoding: 'utf8',
  });
}

describe('keyMutations (AUTH-INVALID)', () => {
  for (const key of KEYS) {
    test(`every mutation of a ${key.length}-char key yields a new, distinct string`, () => {
      const mutated = keyMutations(key).map((m) => m.apply(key));
      const hashLength = key.length - prefixLength(key);
      assert.ok(mutated.length >= (hashLength >= 6 ? 8 : 5), `only ${mutated.length} mutations apply`);
      assert.ok(!mutated.includes(key));
      assert.ok(!mutated.includes(''));
      assert.equal(new Set(mutated).size, mutated.length);
    });

    test(`the shell form of each mutation of a ${key.length}-char key rebuilds the same string in sh`, () => {
      for (const m of keyMutations(key)) {
        assert.equal(evalShell(m.shell('$API_TEST_KEY'), key), m.apply(key), m.name);
      }
    });
  }

  test('shell forms name only the variable: no key characters, nothing key-shaped (the redactor would blank it)', () => {
    for (const key of KEYS) {
      for (const m of keyMutations(key)) {
        const form = m.shell('$API_TEST_KEY');
        const hash = key.slice(prefixLength(key));
        if (hash.length >= 4) assert.ok(!form.includes(hash), m.name);
        assert.doesNotMatch(form, /sk_(?:test|live)_/i, m.name);
        assert.match(form, /API_TEST_KEY/, m.name);
      }
    }
  });

  test('a mutation that would leave the key unchanged is skipped', () => {
    const names = (key: string) => keyMutations(key).map((m) => m.name);
    assert.ok(!names('sk_test_abcdef9876543210').includes('lowercased'));
    assert.ok(!names('sk_test_ABCDEF0123456789').includes('with its hash uppercased'));
    assert.ok(!names('sk_live_ab-cd_ef_').includes('with its last character flipped'));
    assert.ok(names('sk_test_ABCDEF0123456789').includes('lowercased'));
  });

  test('a mutation that gives an issued key is skipped', () => {
    const key = 'sk_test_abc123';
    const issued = ['sk_live_abc123'];
    assert.ok(keyMutations(key).some((m) => m.apply(key) === issued[0]));
    assert.ok(!keyMutations(key, issued).some((m) => m.apply(key) === issued[0]));
  });

  test('the catalogue covers case change, truncation, extension, one altered character and the prefix', () => {
    const key = mockTarget.keys.test;
    const byName = new Map(keyMutations(key).map((m) => [m.name, m.apply(key)]));
    assert.equal(byName.get('uppercased'), key.toUpperCase());
    assert.equal(byName.get('truncated by one character'), key.slice(0, -1));
    assert.equal(byName.get('truncated to its prefix'), 'sk_test_');
    assert.equal(byName.get('extended by one character'), `${key}x`);
    assert.ok(isLiveKey(byName.get('with its mode prefix swapped (test <-> live)')));
    const middle = byName.get('with the middle hash character flipped') as string;
    assert.equal(middle.length, key.length);
    assert.equal([...middle].filter((c, i) => c !== key[i]).length, 1);
  });

  test('the unknown key of valid format keeps the format and changes every hash letter and digit', () => {
    for (const key of [mockTarget.keys.test, 'sk_test_az09AZ']) {
      const unknown = unknownKeyOfValidFormat(key).apply(key);
      assert.ok(isTestKey(unknown));
      assert.equal(unknown.length, key.length);
      for (let i = prefixLength(key); i < key.length; i += 1) assert.notEqual(unknown[i], key[i]);
    }
    assert.equal(unknownKeyOfValidFormat('sk_test_az09AZ').apply('sk_test_az09AZ'), 'sk_test_ba10BA');
    const key = mockTarget.keys.test;
    assert.equal(
      evalShell(unknownKeyOfValidFormat(key).shell('$API_TEST_KEY'), key),
      unknownKeyOfValidFormat(key).apply(key),
    );
  });
});

describe('BASIC_CREDENTIALS (ADV-SCHEME)', () => {
  test('is Base64 of `key:`, and its shell form rebuilds it', () => {
    const key = mockTarget.keys.test;
    const b64 = BASIC_CREDENTIALS.apply(key);
    assert.equal(Buffer.from(b64, 'base64').toString('utf8'), `${key}:`);
    assert.equal(evalShell(BASIC_CREDENTIALS.shell('$API_TEST_KEY'), key), b64);
  });

  test('a long key is not wrapped by base64', () => {
    const key = `sk_live_${'x'.repeat(120)}`;
    assert.equal(evalShell(BASIC_CREDENTIALS.shell('$API_TEST_KEY'), key), BASIC_CREDENTIALS.apply(key));
  });
});

describe('neverCreatedId', () => {
  test('keeps length and character classes, changes the tail, avoids issued ids', () => {
    const id = mockTarget.merchants.sandbox;
    const other = neverCreatedId(id, 4);
    assert.equal(other.length, id.length);
    assert.equal(other.slice(0, -4), id.slice(0, -4));
    assert.notEqual(other, id);
    assert.equal(
      other.replace(/[a-z]/g, 'a').replace(/[A-Z]/g, 'A').replace(/\d/g, '0'),
      id.replace(/[a-z]/g, 'a').replace(/[A-Z]/g, 'A').replace(/\d/g, '0'),
    );
    assert.notEqual(neverCreatedId(id, 4, [other]), other);
  });

  test('an id without letters or digits in its tail still gets a fresh id', () => {
    assert.notEqual(neverCreatedId('m__', 2), 'm__');
  });
});
