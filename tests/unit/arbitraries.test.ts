import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  ABSURD_OFFSET,
  CAP_NOTATIONS,
  filterArb,
  inCapLimitArb,
  limitArb,
  offsetArb,
  overCapNotationArb,
  patternValues,
  requestArb,
  unknownValueArb,
} from '../../core/generate/arbitraries.ts';
import {
  MAX_ENCODED_VALUE,
  oddInputs,
  oddLengthArb,
  oddStringArb,
  oddValueArb,
  repeatTo,
} from '../../core/generate/odd-input.ts';
import { describeRequest, MAX_LIMIT, requestQuery } from '../../core/model/listing.ts';

const SEED = 1712;
const STATUSES = ['COMPLETED', 'PENDING', 'FAILED'];
/** Payments' filter: the statuses known, COMPLETED first; values match case included. */
const statusValues = (known: string[]) => ({ field: 'status', known, exactCase: true });
const PAYMENTS_REQUEST = requestArb(237, [statusValues(STATUSES)], ['amount', '-amount']);
/** Payments' parameters for odd input. */
const PARAMS = { filter: { field: 'status', value: 'COMPLETED' }, sort: 'amount' };
const ODD_INPUTS = oddInputs(PARAMS);

function sampleOf<T>(arb: fc.Arbitrary<T>, numRuns = 2000): T[] {
  return fc.sample(arb, { seed: SEED, numRuns });
}

describe('offsetArb', () => {
  test('covers omitted, 0, inside, around the end and absurd offsets', () => {
    const values = sampleOf(offsetArb(237));
    for (const expected of [undefined, 0, 236, 237, 238]) {
      assert.ok(values.includes(expected), `offsetArb(237) never gave ${expected}`);
    }
    assert.ok(
      values.some((v) => v !== undefined && v > 0 && v < 236),
      'no offset strictly inside',
    );
    assert.ok(
      values.some((v) => v !== undefined && v > 238 && v <= 237 + 1001),
      'no offset past the end',
    );
    assert.ok(
      values.some((v) => v !== undefined && v >= ABSURD_OFFSET),
      'no absurd offset',
    );
  });

  test('only non-negative safe integers', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), (total) => {
        for (const v of fc.sample(offsetArb(total), 50)) {
          assert.ok(v === undefined || (Number.isSafeInteger(v) && v >= 0), `offset ${v}`);
        }
      }),
      { seed: SEED, numRuns: 50 },
    );
  });

  test('total 0 still works', () => {
    const values = sampleOf(offsetArb(0), 500);
    assert.ok(values.includes(0) && values.includes(1));
  });
});

describe('limit arbitraries', () => {
  test('limitArb covers omitted, 1, 100 and over the cap', () => {
    const values = sampleOf(limitArb());
    for (const expected of [undefined, 1, 10, 99, MAX_LIMIT]) {
      assert.ok(values.includes(expected), `limitArb never gave ${expected}`);
    }
    assert.ok(
      values.some((v) => v !== undefined && v > MAX_LIMIT),
      'no limit over the cap',
    );
    assert.ok(values.every((v) => v === undefined || (Number.isInteger(v) && v >= 1)));
  });

  test('inCapLimitArb stays in 1..100 and reaches both edges', () => {
    const values = sampleOf(inCapLimitArb());
    assert.ok(values.every((v) => Number.isInteger(v) && v >= 1 && v <= MAX_LIMIT));
    assert.ok(values.includes(1) && values.includes(MAX_LIMIT));
  });

  test("a collection's own maximum bounds its limits: 1..50 in the cap, 51 and more over it", () => {
    const values = sampleOf(inCapLimitArb(50));
    assert.ok(values.every((v) => v >= 1 && v <= 50) && values.includes(50) && values.includes(1));
    assert.ok(sampleOf(overCapNotationArb(50)).every((l) => l.value > 50));
  });
});

describe('filter arbitraries', () => {
  test('unknownValueArb never returns a known value or the empty string', () => {
    for (const known of [STATUSES, [], ['completed'], ['UNKNOWN', 'NO_SUCH_STATUS', 'Completed']]) {
      const values = sampleOf(unknownValueArb(statusValues(known)), 1000);
      const bad = values.filter((v) => v === '' || known.includes(v));
      assert.deepEqual(bad, [], `known ${JSON.stringify(known)}`);
    }
  });

  test('an exact-case field gets case-changed and space-padded variants of known values; another does not', () => {
    const values = sampleOf(unknownValueArb(statusValues(['COMPLETED', 'PENDING'])));
    for (const expected of ['pending', 'Pending', 'completed', ' PENDING', 'PENDING ', 'NO_SUCH_STATUS', 'CÓMPLETED']) {
      assert.ok(values.includes(expected), `never gave ${JSON.stringify(expected)}`);
    }
    const other = sampleOf(unknownValueArb({ field: 'reason', known: ['duplicate'] }));
    assert.ok(!other.includes('DUPLICATE') && other.includes('NO_SUCH_REASON'));
  });

  test('filterArb gives known values, unknown values and omitted', () => {
    const values = sampleOf(filterArb([statusValues(['COMPLETED', 'PENDING', 'FAILED'])])).map((f) => f?.value);
    for (const expected of [undefined, 'PENDING', 'FAILED', 'COMPLETED']) {
      assert.ok(values.includes(expected), `never gave ${expected}`);
    }
    assert.ok(
      values.some((v) => v !== undefined && !['PENDING', 'FAILED', 'COMPLETED'].includes(v)),
      'no unknown',
    );
  });

  test('pattern values, alone and built from the named values (COMP%, %COMPLETED%…), lists of two, none known', () => {
    assert.deepEqual(patternValues(['COMPLETED'], new Set(['COMPLETED', 'PENDING'])), [
      '%',
      '_',
      '*',
      '?',
      '.*',
      'COMP%',
      '%COMPLETED%',
      'COMPLETE_',
      'C*',
      'COMPLETE?',
      'COMPLETED%',
      'COMPLETED,PENDING',
      'COMPLETED|PENDING',
      'COMPLETED;PENDING',
    ]);
    assert.ok(patternValues(['duplicate'], new Set(['duplicate'])).every((v) => /[%_*?,|;]/.test(v)));
  });

  test('once (depth quick): each wildcard once, inside a known value where one carries it; a list with a comma', () => {
    assert.deepEqual(patternValues(['COMPLETED'], new Set(['COMPLETED', 'PENDING']), true), [
      'COMP%',
      'COMPLETE_',
      'C*',
      'COMPLETE?',
      '.*',
      'COMPLETED,PENDING',
    ]);
  });
});

describe('requestArb', () => {
  test("sorts are exactly the collection's and omitted", () => {
    assert.deepEqual(
      new Set(sampleOf(PAYMENTS_REQUEST, 300).map((r) => r.sort)),
      new Set(['amount', '-amount', undefined]),
    );
  });

  test('requestArb omits keys rather than holding undefined', () => {
    for (const w of sampleOf(PAYMENTS_REQUEST, 500)) {
      for (const [key, value] of Object.entries(w)) assert.notEqual(value, undefined, `${key} in ${JSON.stringify(w)}`);
    }
  });

  test('requestArb mostly gives in-range windows, and some of every kind', () => {
    const windows = sampleOf(PAYMENTS_REQUEST);
    const inRange = windows.filter(
      (w) => w.offset !== undefined && w.offset < 237 && w.limit !== undefined && w.limit <= MAX_LIMIT,
    );
    assert.ok(inRange.length > windows.length / 3, `${inRange.length} of ${windows.length} in range`);
    assert.ok(windows.some((w) => w.offset === undefined));
    assert.ok(windows.some((w) => w.limit === undefined));
    assert.ok(windows.some((w) => w.limit !== undefined && w.limit > MAX_LIMIT));
    assert.ok(windows.some((w) => w.offset !== undefined && w.offset >= 237));
    assert.ok(windows.some((w) => w.filter?.value === 'COMPLETED' && w.sort === '-amount'));
  });

  test('a failing property shrinks to the simplest window', () => {
    for (const seed of [SEED, 1, 2, 3]) {
      const details = fc.check(
        fc.property(PAYMENTS_REQUEST, (w) => w.limit === undefined || w.limit < 50),
        { seed },
      );
      assert.equal(details.failed, true);
      const [w] = details.counterexample ?? [];
      // Both branches of requestArb shrink to this: offset omitted or 0, no filter, no sort, the smallest bad limit.
      assert.ok(w?.offset === undefined || w.offset === 0, JSON.stringify(w));
      assert.deepEqual({ ...w, offset: undefined }, { offset: undefined, limit: 50 }, `seed ${seed}`);
    }
  });

  test('offsets and limits shrink across their zones', () => {
    const offset = fc.check(
      fc.property(offsetArb(237), (o) => o === undefined || o < 1000),
      { seed: SEED },
    );
    assert.deepEqual(offset.counterexample, [1000]);
    const limit = fc.check(
      fc.property(limitArb(), (l) => l === undefined || l <= MAX_LIMIT),
      { seed: SEED },
    );
    assert.deepEqual(limit.counterexample, [MAX_LIMIT + 1]);
  });
});

describe('requestQuery and describeRequest', () => {
  const full = { offset: 3, limit: 10, filter: { field: 'status', value: 'COMPLETED' }, sort: '-amount' };

  test('pairs in order, omitted parameters left out', () => {
    assert.deepEqual(requestQuery(full), [
      ['offset', '3'],
      ['limit', '10'],
      ['filter[status]', 'COMPLETED'],
      ['sort', '-amount'],
    ]);
    assert.deepEqual(requestQuery({ limit: 0, filter: { field: 'status', value: '' } }), [
      ['limit', '0'],
      ['filter[status]', ''],
    ]);
    assert.deepEqual(requestQuery({}), []);
  });

  test('a readable one-liner', () => {
    assert.equal(describeRequest(full), 'offset=3 limit=10 filter[status]=COMPLETED sort=-amount');
    assert.equal(describeRequest({ limit: 100 }), 'limit=100');
    assert.equal(describeRequest({ filter: { field: 'status', value: ' COMPLETED' } }), 'filter[status]=" COMPLETED"');
    assert.equal(describeRequest({ filter: { field: 'status', value: '' } }), 'filter[status]=""');
    assert.equal(describeRequest({}), '(no query parameters)');
  });
});

describe('oddValueArb', () => {
  const names = new Set(['offset', 'limit', 'filter[status]', 'filter', 'sort', 'limit[]']);

  test('the catalogue has unique labels and covers the listed kinds', () => {
    const labels = ODD_INPUTS.map((o) => o.label);
    assert.equal(new Set(labels).size, labels.length, 'duplicate labels');
    for (const expected of [
      'limit=-1 (negative)',
      'offset=-1 (negative)',
      'limit=0 (zero limit)',
      'limit=1.5 (non-integer)',
      'offset= (empty)',
      'limit=1e2 (exponent)',
      'offset=0x10 (hex)',
      'limit=+5 (leading plus)',
      'offset= 5 (leading space)',
      'limit=abc (letters)',
      `offset=${'9'.repeat(30)} (huge, 30 digits)`,
      'limit=5&limit=7 (repeated parameter)',
      'offset=0&offset=3 (repeated parameter)',
      'filter[status]= (empty)',
      'sort= (empty)',
    ]) {
      assert.ok(labels.includes(expected), `missing ${expected}`);
    }
    assert.ok(labels.some((l) => l.startsWith('filter[status]=') && l.endsWith('(very long)')));
    assert.ok(labels.some((l) => l.startsWith('sort=') && l.endsWith('(very long)')));
  });

  test('every case is non-empty query pairs on the listing parameters', () => {
    const cases = sampleOf(oddValueArb(PARAMS), 1000);
    for (const c of cases) {
      assert.ok(c.label.length > 0 && c.label.length <= 90, `label ${c.label}`);
      assert.ok(c.pairs.length > 0, c.label);
      for (const pair of c.pairs) {
        assert.equal(pair.length, 2, c.label);
        assert.ok(names.has(pair[0]), `${c.label}: parameter ${pair[0]}`);
        assert.equal(typeof pair[1], 'string', c.label);
      }
    }
    const labels = new Set(cases.map((c) => c.label));
    assert.ok(labels.size > cases.length / 5, `only ${labels.size} distinct labels in ${cases.length}`);
  });

  test('the 30-digit case really has 30 digits and the repeated cases repeat', () => {
    const huge = ODD_INPUTS.find((o) => o.label.startsWith('limit=9') && o.label.includes('30 digits'));
    assert.deepEqual(huge?.pairs, [['limit', '9'.repeat(30)]]);
    const repeated = ODD_INPUTS.find((o) => o.label === 'limit=5&limit=7 (repeated parameter)');
    assert.deepEqual(repeated?.pairs, [
      ['limit', '5'],
      ['limit', '7'],
    ]);
  });
});

describe('oddStringArb, oddLengthArb and repeatTo', () => {
  test('lengths cover a few characters, the middle (256..1024) and several thousand', () => {
    const lengths = sampleOf(oddLengthArb());
    assert.ok(lengths.every((n) => n >= 1 && n <= 6000));
    assert.ok(lengths.some((n) => n <= 16));
    assert.ok(lengths.filter((n) => n >= 256 && n <= 1024).length > lengths.length / 5);
    assert.ok(lengths.some((n) => n > 4096));
  });

  test('values come in every character set, never cut an emoji in half, and URL-encode', () => {
    const values = sampleOf(oddStringArb(PARAMS), 500);
    const all = values.map((o) => o.pairs[0]?.[1] ?? '');
    assert.ok(
      all.some((v) => [...v].some((c) => (c.codePointAt(0) ?? 0) > 0x7f)),
      'non-ASCII',
    );
    assert.ok(
      all.some((v) => [...v].some((c) => (c.codePointAt(0) ?? 0) < 0x20 || c === '\u007f')),
      'control characters',
    );
    for (const v of all) assert.ok(encodeURIComponent(v).length <= MAX_ENCODED_VALUE + 12, `${v.length} characters`);
    assert.ok(
      all.some((v) => v.length > 4000 && /^[A-Za-z0-9]+$/.test(v)),
      'ASCII values reach several thousand',
    );
    assert.equal(repeatTo('😀x', 3), '😀x😀');
    assert.equal([...repeatTo('中文', 5)].length, 5);
  });

  test('a failing length shrinks toward the smallest failing length', () => {
    const details = fc.check(
      fc.property(oddLengthArb(), (n) => n < 300),
      { seed: SEED },
    );
    assert.equal(details.counterexample?.[0], 300);
  });
});

describe('overCapNotationArb', () => {
  test('writes values over 100 in every notation, next to the number they mean', () => {
    const samples = sampleOf(overCapNotationArb(), 1000);
    const notations = new Set(samples.map((s) => s.notation));
    assert.equal(notations.size, CAP_NOTATIONS.length);
    for (const s of samples) {
      assert.ok(s.value > MAX_LIMIT);
      // The parameter by its name, or in a structure a query-string parser maps onto it (limit[], limit[0], LIMIT).
      const names = { array: 'limit[]', 'indexed array': 'limit[0]', 'name in capitals': 'LIMIT' } as Record<
        string,
        string
      >;
      assert.ok(
        s.pairs.every(([k]) => k === (names[s.notation] ?? 'limit')),
        `${s.notation}: ${s.pairs}`,
      );
      const values = s.pairs.map(([, v]) => v);
      if (s.notation === 'plain' || s.notation in names) assert.deepEqual(values, [String(s.value)]);
      if (s.notation === 'exponent') assert.equal(Number(values[0]), s.value, values[0]);
      if (s.notation === 'decimal' || s.notation === 'plus sign' || s.notation === 'leading zeros')
        assert.equal(Number(values[0]), s.value);
      if (s.notation.includes('then')) assert.equal(values.length, 2);
      // The integer parsers' syntaxes: what a lenient parser reads as the value meant.
      const lenient = (v: string) => {
        const t = v.normalize('NFKC').trim().replaceAll('_', '');
        return /^0x/i.test(t) ? Number(t) : Number.parseInt(t, 10);
      };
      if (['white space', 'hexadecimal', 'leading digits', 'digit separators', 'other digits'].includes(s.notation))
        assert.equal(lenient(values[0] as string), s.value, `${s.notation}: ${values[0]}`);
    }
  });
});
