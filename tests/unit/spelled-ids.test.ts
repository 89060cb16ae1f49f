/**
 * The grammar of merchant-id spellings (core/generate/spelled-ids.ts) and how a spelled answer is judged
 * (checks/spelled-id.ts): every class on every merchant, only what goes on the wire, nothing that names
 * another configured merchant, and the oracle's answer where the spelling resolves to the merchant.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { spelledExpectation } from '../../checks/spelled-id.ts';
import {
  coverageSpellings,
  isSentAsWritten,
  spelledPaymentsPath,
  spellingDrawArb,
  spellingOf,
  spellingSummary,
  spellingsOf,
} from '../../core/generate/spelled-ids.ts';
import { SPELLING_CLASSES } from '../../core/generate/spelling-classes.ts';
import { skeleton } from '../../core/generate/unicode-forms.ts';
import type { Credential, SpelledCase, SpellingFacts } from '../../core/model/access.ts';
import { IDENTITY } from '../../mock/index.ts';

const IDS = [IDENTITY.merchants.sandbox, IDENTITY.merchants.otherSandbox, IDENTITY.merchants.live];
const SB = IDS[0] as string;
const decoded = (segment: string) => decodeURIComponent(segment);
const member = (name: string) => {
  const s = spellingsOf(SB, IDS.slice(1)).find((x) => x.name.startsWith(name));
  assert.ok(s, name);
  return s;
};

describe('merchant-id spelling grammar', () => {
  test('the coverage set has one spelling of every class on every merchant, the same on every call', () => {
    const set = coverageSpellings(IDS);
    for (const id of IDS) {
      const classes = set.filter((s) => s.merchant === id).map((s) => s.klass);
      assert.deepEqual(
        classes,
        SPELLING_CLASSES.map((k) => k.name),
        id,
      );
    }
    assert.deepEqual(coverageSpellings(IDS), set);
    assert.equal(spellingSummary(set, 3), 'merchant-id spellings: 15 classes, 45 spellings on 3 merchants, 3 served');
  });

  test('merchants meet different members of a class (rotation)', () => {
    const set = coverageSpellings(IDS);
    const names = (klass: string) => new Set(set.filter((s) => s.klass === klass).map((s) => s.name));
    assert.equal(names('case').size, 3);
    assert.equal(names('percent-encoding').size, 3);
  });

  test('every spelling goes on the wire as written, and none is the id itself', () => {
    for (const id of IDS) {
      for (const s of spellingsOf(id, IDS)) {
        const path = spelledPaymentsPath(s.segment);
        assert.ok(isSentAsWritten(path), path);
        assert.equal(new URL(`http://h${path}`).pathname, path);
        assert.notEqual(s.segment, encodeURIComponent(id), s.name);
      }
    }
  });

  test('raw dot-segments are left out: the URL parser resolves them before the wire', () => {
    assert.equal(isSentAsWritten('/payments/n1/merchant/./msb/payments'), false);
    assert.equal(isSentAsWritten('/payments/n1/merchant/x/../msb/payments'), false);
    assert.equal(isSentAsWritten('/payments/n1/merchant/x/%2e%2e/msb/payments'), false);
    assert.ok(!spellingsOf(SB).some((s) => s.segment.startsWith('./')));
    assert.ok(isSentAsWritten(spelledPaymentsPath(member('another segment and back').segment)));
  });

  test('Unicode classes fold back to the id the way a normalising lookup folds them', () => {
    const nfkc = (name: string) => decoded(member(name).segment).normalize('NFKC');
    assert.equal(nfkc('every character in fullwidth form'), SB);
    assert.equal(nfkc('letters and digits in mathematical bold'), SB);
    assert.equal(nfkc('the digits as superscripts'), SB);
    const accent = decoded(member('"m" with a combining acute accent').segment);
    assert.equal(accent.normalize('NFD').replace(/\p{M}/gu, ''), SB);
    assert.notEqual(accent.normalize('NFC'), accent, 'NFC composes it');
    for (const name of ['"s" as its look-alike', 'ASCII look-alikes', 'every letter that has one']) {
      const s = decoded(member(name).segment);
      assert.notEqual(s, SB);
      assert.equal(skeleton(s), skeleton(SB), name);
    }
  });

  test('encodings decode to the id: any subset, either hex case, twice for double encoding', () => {
    for (const s of spellingsOf(SB).filter((x) => x.klass === 'percent-encoding')) {
      assert.equal(decoded(s.segment), SB, s.name);
    }
    assert.equal(decoded(decoded(member('every character double-encoded').segment)), SB);
    assert.match(member('every character percent-encoded, lower-case hex').segment, /%6d/);
  });

  test('no spelling could name another configured merchant (prefix, suffix or a folding of it)', () => {
    const near = ['abc123', 'abc1234'];
    const spelled = spellingsOf('abc123', ['abc1234']).map((s) => decoded(s.segment));
    assert.ok(!spelled.includes('abc12'), 'a prefix of the other id too');
    assert.ok(!spelled.some((s) => s.toLowerCase() === near[1]));
    assert.ok(spelled.includes('ABC123'), 'a case change names only its own merchant');
  });

  test('drawn spellings: on the wire as written, never the id, any class', () => {
    fc.assert(
      fc.property(spellingDrawArb(IDS), (d) => {
        const s = spellingOf(IDS, d);
        if (!s) return true;
        const path = spelledPaymentsPath(s.segment);
        return (
          isSentAsWritten(path) &&
          s.segment !== encodeURIComponent(s.merchant) &&
          s.klass === SPELLING_CLASSES[d.klass]?.name
        );
      }),
      { numRuns: 300, seed: 7 },
    );
  });

  test('a drawn percent-encoding encodes exactly the drawn positions', () => {
    const klass = SPELLING_CLASSES.findIndex((k) => k.name === 'percent-encoding');
    const s = spellingOf([SB], { merchant: 0, klass, choice: 1, bits: [true, false, true] });
    assert.equal(s?.segment, `%6ds%62${SB.slice(3)}`);
  });
});

const modes = (slot: string) => (slot === 'live' ? 'live' : 'test') as 'test' | 'live';
const at = (credential: Credential, merchant: SpelledCase['merchant'] = 'sandbox'): SpelledCase => ({
  credential,
  merchant,
  spelling: 'the id in upper case',
  query: { limit: 100 },
});
const facts = (f: Partial<SpellingFacts>): SpellingFacts => ({
  served: false,
  resolved: false,
  forbiddenRecords: 0,
  ...f,
});
const allows = (c: SpelledCase, f: Partial<SpellingFacts>) => {
  const exp = spelledExpectation(c, facts(f), modes);
  return { rule: exp.rule, statuses: [200, 301, 401, 403, 404].filter((s) => exp.allowed(s)) };
};

describe('judging a spelled answer', () => {
  test('without a valid key: 401 where the test key is served, any refusal elsewhere, never a 2xx', () => {
    assert.deepEqual(allows(at({ kind: 'none' }), { served: true }), { rule: 'AUTH-MISSING', statuses: [401] });
    assert.deepEqual(allows(at({ kind: 'none' }), {}), { rule: 'AUTH-MISSING', statuses: [301, 401, 403, 404] });
    assert.deepEqual(allows(at({ kind: 'key', slot: 'revoked' }), { served: true }), {
      rule: 'AUTH-REVOKED',
      statuses: [401],
    });
  });

  test('the live key on a sandbox merchant: 404 where the spelling resolves to it; elsewhere no sandbox record', () => {
    const live = at({ kind: 'key', slot: 'live' });
    assert.deepEqual(allows(live, { served: true, resolved: true }), { rule: 'MODE-LIVE-SANDBOX', statuses: [404] });
    assert.deepEqual(allows(live, { served: true }).statuses, [200, 301, 401, 403, 404], 'an empty 200: not judged');
    assert.deepEqual(allows(live, { forbiddenRecords: 2 }).statuses, [301, 401, 403, 404]);
  });

  test('the restricted key: 403 where the spelling resolves to the merchant, never 401 there', () => {
    const restricted = at({ kind: 'key', slot: 'restricted' }, 'live');
    assert.deepEqual(allows(restricted, { served: true, resolved: true }), { rule: 'AUTH-FORBIDDEN', statuses: [403] });
    assert.deepEqual(allows(restricted, { forbiddenRecords: 1 }).statuses, [301, 401, 403, 404]);
    const what = spelledExpectation(restricted, facts({ served: true, resolved: true }), modes).what;
    assert.match(what, /spelled with the id in upper case \(the test key is served it as that merchant\)/);
  });
});
