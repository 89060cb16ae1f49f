import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { authOf } from '../../core/generate/access-cases.ts';
import {
  AROUND_NAMES,
  allGrammarClasses,
  aroundCoverage,
  arounds,
  grammarClasses,
  grammarSummary,
  LEADS,
  otherValidKey,
  SCHEMES,
  SEPARATORS,
  spellingArb,
  TRAILS,
} from '../../core/generate/auth-header.ts';
import { keyMutations } from '../../core/generate/key-mutations.ts';
import {
  type Auth,
  asKey,
  authLabel,
  headerPieces,
  KEY_VARS,
  type KeySlot,
  NO_AUTH,
  presentedKeySlot,
} from '../../core/model/credentials.ts';
import { curlFor } from '../../core/model/exchange.ts';
import { ACCESS_RULES } from '../../core/model/rules.ts';
import { paymentsCases } from '../support/access.ts';
import { testTarget } from '../support/target.ts';

const KEYS: Record<KeySlot, string> = {
  test: 'sk_test_GrammarTestKey01',
  live: 'sk_live_GrammarLiveKey02',
  restricted: 'sk_test_GrammarRestricted3',
  revoked: 'sk_test_GrammarRevoked04',
  old: 'sk_test_GrammarOldKey05',
};
const SLOTS = Object.keys(KEYS) as KeySlot[];
const [MUTATION] = keyMutations(KEYS.test, Object.values(KEYS));

/** The header as the client builds it (the same pieces, the keys put in). */
function header(auth: Extract<Auth, { kind: 'key' }>): string {
  return headerPieces(auth)
    .map((p) => {
      if (typeof p === 'string') return p;
      const key = KEYS[p.slot];
      return p.main && auth.mutation ? auth.mutation.apply(key) : key;
    })
    .join('');
}

/** Every header of the grammar around the key of `slot`: each scheme, separator, edge, around, mutated or not. */
function everyHeader(slot: KeySlot): Array<Extract<Auth, { kind: 'key' }>> {
  const out: Array<Extract<Auth, { kind: 'key' }>> = [];
  for (const scheme of SCHEMES)
    for (const gap of SEPARATORS)
      for (const lead of ['', ...LEADS.map((l) => l.value)])
        for (const trail of ['', ...TRAILS.map((t) => t.value)])
          for (const around of [undefined, ...arounds(slot, otherValidKey(KEYS, slot))])
            for (const mutation of [undefined, MUTATION]) {
              const a = asKey(slot, { scheme: scheme.value, gap: gap.value, lead, trail, around, mutation });
              out.push(a as Extract<Auth, { kind: 'key' }>);
            }
  return out;
}

const ALL = SLOTS.flatMap(everyHeader);

describe('presentedKeySlot: which configured key a header presents, over the whole grammar', () => {
  test('the slot exactly when the header, as a server reads it, is that key after a Bearer scheme (any case, any whitespace)', () => {
    let presented = 0;
    for (const auth of ALL) {
      // As a server reads it: HTTP strips the edges; then a Bearer scheme, whitespace, one token.
      const token = /^bearer[ \t]+(\S+)$/i.exec(header(auth).trim())?.[1];
      const expected = token !== undefined && token === KEYS[auth.slot] ? auth.slot : undefined;
      assert.equal(presentedKeySlot(auth), expected, JSON.stringify(header(auth)));
      if (expected) presented += 1;
    }
    // Bearer in 4 cases × 3 separators × 2 leads × 3 trails, per slot, nothing around, not mutated.
    assert.equal(presented, 5 * 4 * 3 * 2 * 3);
  });

  test('undefined for no header, a made-up one, a mutation, more than the key, another scheme, a bare or glued key', () => {
    assert.equal(presentedKeySlot(NO_AUTH), undefined);
    assert.equal(presentedKeySlot({ kind: 'literal', header: `Bearer ${KEYS.test}` }), undefined);
    assert.equal(presentedKeySlot(asKey('test')), 'test');
    assert.equal(presentedKeySlot(asKey('revoked', { scheme: 'BEARER', gap: '\t', trail: ' ' })), 'revoked');
    assert.equal(presentedKeySlot(asKey('test', { mutation: MUTATION })), undefined);
    for (const around of arounds('test', 'live')) assert.equal(presentedKeySlot(asKey('test', { around })), undefined);
    for (const scheme of ['Basic', 'Token', 'Bearer:', ''])
      assert.equal(presentedKeySlot(asKey('test', { scheme })), undefined);
    assert.equal(presentedKeySlot(asKey('test', { gap: '' })), undefined);
  });
});

describe('the header as sent, its label and its curl line', () => {
  test('no label or curl line holds a key; each shows the key by its variable', () => {
    for (const auth of ALL) {
      const label = authLabel(auth);
      const curl = curlFor('http://h/p', auth);
      for (const key of Object.values(KEYS)) {
        assert.ok(!label.includes(key) && !curl.includes(key), label);
        assert.ok(!label.includes(key.slice(8)) && !curl.includes(key.slice(8)), label);
      }
      assert.ok(label.includes(`$${KEY_VARS[auth.slot]}`), label);
    }
  });

  test('the label is the header with $VARIABLE for each key, notes in brackets', () => {
    const [another, again, , , otherKey, , , param, quotes, before] = arounds('test', 'live');
    const label = (extra: Parameters<typeof asKey>[1]) => authLabel(asKey('test', extra));
    assert.equal(label({ around: another }), 'Authorization: Bearer $API_TEST_KEY x (followed by another token)');
    assert.equal(
      label({ around: again }),
      'Authorization: Bearer $API_TEST_KEY $API_TEST_KEY (followed by the key again)',
    );
    assert.equal(
      label({ around: otherKey }),
      'Authorization: Bearer $API_TEST_KEY, Bearer $API_LIVE_KEY (followed by a comma and another key)',
    );
    assert.equal(label({ around: param }), 'Authorization: Bearer $API_TEST_KEY; realm=x (followed by a parameter)');
    assert.equal(label({ around: quotes, mutation: MUTATION }).split(' (')[0], 'Authorization: Bearer "$API_TEST_KEY"');
    assert.match(label({ around: quotes, mutation: MUTATION }), /\(in double quotes; \$API_TEST_KEY \w/);
    assert.equal(
      label({ around: before, scheme: 'bearer' }),
      'Authorization: bearer not-a-key, Bearer $API_TEST_KEY (after a junk Bearer credential)',
    );
    assert.equal(label({ gap: '\t' }), 'Authorization: Bearer\t$API_TEST_KEY (a tab after the scheme)');
    assert.equal(label({ gap: '' }), 'Authorization: Bearer$API_TEST_KEY (no space after the scheme)');
    assert.equal(label({ gap: '  ' }), 'Authorization: Bearer  $API_TEST_KEY (2 spaces after the scheme)');
    assert.equal(
      label({ lead: ' ', trail: '\t' }),
      'Authorization:  Bearer $API_TEST_KEY\t (a space before the value; a tab after the key)',
    );
  });

  test('the curl line, run by sh with the keys in the environment, sends exactly the header the client sends', () => {
    // A sample of the grammar (every around, scheme, separator and edge among them), evaluated in one shell.
    const sample = [
      ...ALL.filter((a) => a.slot === 'test' && !a.lead && !a.trail && a.scheme === 'Bearer' && a.gap === ' '),
      ...ALL.filter((a) => a.slot === 'live' && !a.around && !a.mutation),
      ...fc.sample(fc.constantFrom(...ALL), { seed: 11, numRuns: 40 }),
    ];
    // `curl` prints its arguments, one a line; each line of the script is one curl line.
    const script = `curl() { for a; do printf '%s\\n' "$a"; done; echo ---; }\n${sample.map((a) => curlFor('http://h/p', a)).join('\n')}`;
    const env = { ...process.env, ...Object.fromEntries(SLOTS.map((s) => [KEY_VARS[s], KEYS[s]])) };
    const out = execFileSync('sh', ['-c', script], { env, encoding: 'utf8' }).split('---\n');
    sample.forEach((auth, i) => {
      const sent = out[i]?.split('\n').find((l) => l.startsWith('Authorization: '));
      assert.equal(sent, `Authorization: ${header(auth)}`, authLabel(auth));
    });
  });
});

describe('the grammar and its coverage phase', () => {
  test('class names are distinct; the spelling arbitrary glues a key to its scheme only when asked', () => {
    const classes = allGrammarClasses(SLOTS);
    assert.equal(new Set(classes).size, classes.length);
    const separated = fc.sample(spellingArb(false), { seed: 3, numRuns: 500 });
    assert.ok(separated.every((s) => s.gap !== ''));
    assert.ok(
      separated.some((s) => s.lead) && separated.some((s) => s.trail) && separated.some((s) => s.scheme === ''),
    );
    assert.ok(fc.sample(spellingArb(true), { seed: 3, numRuns: 500 }).some((s) => s.gap === ''));
  });

  test('a second credential that is a key only when another valid key is configured', () => {
    assert.equal(otherValidKey({ test: KEYS.test }, 'test'), undefined);
    assert.equal(otherValidKey({ test: KEYS.test, live: KEYS.live }, 'test'), 'live');
    assert.equal(otherValidKey({ test: KEYS.test, restricted: KEYS.test }, 'test'), undefined, 'the same value');
    assert.equal(arounds('test').length, AROUND_NAMES.length - 1);
    // With the test key alone: every around but the other key's, and the glued spelling; no piece names another slot.
    const forms = aroundCoverage({ test: KEYS.test }, ['test']);
    assert.equal(forms.length, AROUND_NAMES.length);
    const pieces = forms.flatMap((f) => [...(f.around?.before ?? []), ...(f.around?.after ?? [])]);
    assert.deepEqual([...new Set(pieces.flatMap((p) => (typeof p === 'string' ? [] : [p.slot])))], ['test']);
  });

  test('the examples of the access matrix send every class of the grammar at least once', () => {
    const merchants = { sandbox: 'msb_1', live: 'mlv_1', otherSandbox: 'msb_2' };
    const sent = (keys: Record<string, string>) => {
      const t = testTarget({ keys: keys as typeof KEYS, merchants });
      return new Set(
        ACCESS_RULES.flatMap((r) => paymentsCases(t, r)?.examples ?? []).flatMap((c) => grammarClasses(authOf(c))),
      );
    };
    const all = sent(KEYS);
    assert.deepEqual(
      allGrammarClasses(SLOTS).filter((c) => !all.has(c)),
      [],
    );
    // The bundled mock's configuration: the old key is the revoked one, sent once.
    const mock = sent({ ...KEYS, old: KEYS.revoked });
    assert.deepEqual(
      allGrammarClasses(SLOTS).filter((c) => !mock.has(c)),
      ['the old key exactly'],
    );
  });

  test('the record note counts classes and key headers; none when every key is written Bearer <key>', () => {
    assert.equal(grammarSummary([asKey('test'), NO_AUTH, asKey('live')]), undefined);
    assert.equal(
      grammarSummary([asKey('test'), asKey('test', { scheme: 'bearer' }), NO_AUTH]),
      'Authorization grammar: 5 classes, 2 headers',
    );
  });
});
