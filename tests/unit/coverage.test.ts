/** The coverage phase's covering set (core/generate/coverage.ts): every class of every parameter, deterministic. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  CHAR_CLASSES,
  coverageCases,
  coverageSummary,
  coveredParameters,
  LENGTHS,
  LONGEST_ENCODED,
  NUMBER_FORMS,
} from '../../core/generate/coverage.ts';
import { type Collection, PAYMENTS } from '../../core/model/collection.ts';
import { buildURL } from '../../core/model/exchange.ts';

const cases = coverageCases(PAYMENTS);

describe('coverage phase', () => {
  test('every parameter meets every length, every character class, every number form and every structure', () => {
    for (const parameter of coveredParameters(PAYMENTS).parameters) {
      const classes = new Set(cases.filter((c) => c.parameter === parameter).flatMap((c) => c.classes));
      for (const n of LENGTHS) assert.ok(classes.has(`length ${n}`), `${parameter}: length ${n}`);
      assert.ok(classes.has('near the longest'), `${parameter}: near the longest`);
      for (const c of CHAR_CLASSES) assert.ok(classes.has(c.name), `${parameter}: ${c.name}`);
      for (const [, form] of NUMBER_FORMS) assert.ok(classes.has(form), `${parameter}: ${form}`);
      for (const s of ['repeated', 'bracketed', 'named sub-key', 'empty value', 'no value']) {
        assert.ok(classes.has(s), `${parameter}: ${s}`);
      }
    }
  });

  test('the crash windows of the issue are in it: a filter of 33 to 255 characters, and a non-ASCII one', () => {
    const filters = cases.filter((c) => c.parameter === 'filter[status]');
    const lengths = filters.map((c) => Array.from(c.pairs[0]?.[1] ?? '').length);
    assert.ok(lengths.some((n) => n >= 33 && n <= 255));
    const nonAscii = (v: string) => [...v].some((ch) => (ch.codePointAt(0) ?? 0) > 127);
    assert.ok(filters.some((c) => nonAscii(c.pairs[0]?.[1] ?? '')));
  });

  test('the same set on every run; values stay under the longest encoded length; raw bytes stay raw', () => {
    assert.deepEqual(coverageCases(PAYMENTS), cases);
    for (const c of cases) {
      const url = buildURL('', '/x', c.pairs);
      assert.ok(url.length < LONGEST_ENCODED + 200, `${c.label}: ${url.length}`);
    }
    const invalid = cases.find((c) => c.classes.includes('invalid UTF-8'));
    assert.match(buildURL('', '/x', invalid?.pairs ?? []), /=(%FF%C3)+/);
    const bare = cases.find((c) => c.classes.includes('no value') && c.parameter === 'limit');
    assert.equal(buildURL('', '/x', bare?.pairs ?? []), '/x?limit');
  });

  test('the summary counts the requests, the classes and the parameters', () => {
    assert.match(
      coverageSummary(cases),
      new RegExp(`^coverage phase: ${cases.length} requests, \\d+ classes .* 5 parameters$`),
    );
  });

  test('once (depth quick): every parameter a middle and a long value, each family, number form and structure once', () => {
    const once = coverageCases(PAYMENTS, true);
    assert.ok(once.length < cases.length / 5, `${once.length} requests`);
    const texts = coveredParameters(PAYMENTS).parameters;
    const lengthsOf = (p: string) =>
      once
        .filter((c) => c.parameter === p)
        .flatMap((c) => c.classes)
        .map((x) =>
          x === 'near the longest' ? Number.MAX_SAFE_INTEGER : Number(/^length (\d+)$/.exec(x)?.[1] ?? NaN),
        );
    for (const p of texts) {
      assert.ok(
        lengthsOf(p).some((n) => n >= 33 && n <= 255),
        `${p}: a middle length`,
      );
      assert.ok(
        lengthsOf(p).some((n) => n >= 256),
        `${p}: a long one`,
      );
    }
    const classes = new Set(once.flatMap((c) => c.classes));
    for (const family of [
      'letters and digits',
      'Latin-1',
      'multi-byte UTF-8',
      'outside the BMP',
      'control characters and NUL',
    ])
      assert.ok(classes.has(family), family);
    for (const s of ['repeated', 'bracketed', 'named sub-key', 'empty value', 'no value']) assert.ok(classes.has(s), s);
    for (const form of ['leading zeros', 'hex', 'int32 maximum + 1', 'huge']) assert.ok(classes.has(form), form);
    // The punctuation family carries every group at once, in a value long enough to hold them all.
    const punctuation = once.filter((c) => c.classes.some((x) => x.startsWith('ASCII punctuation')));
    for (const group of CHAR_CLASSES.slice(2, 17))
      assert.ok(
        punctuation.some((c) => (c.pairs[0]?.[1] ?? '').includes(group.unit)),
        group.name,
      );
    assert.deepEqual(coverageCases(PAYMENTS, true), once);
  });

  test("another collection's bounded share: its filters in full, sort without number forms, offset and limit's numbers", () => {
    const refunds: Collection = {
      ...PAYMENTS,
      name: 'refunds',
      filters: [{ field: 'reason', values: 'learn' }],
      sorts: [{ field: 'createdAt', type: 'date-time' }],
      spec: undefined,
    };
    const own = coverageCases(refunds);
    const classes = (p: string) => new Set(own.filter((c) => c.parameter === p).flatMap((c) => c.classes));
    assert.ok(classes('filter[reason]').has('length 255') && classes('filter[reason]').has('hex'));
    assert.ok(classes('sort').has('length 255') && !classes('sort').has('hex'));
    assert.deepEqual([...classes('limit')].sort(), NUMBER_FORMS.map(([, f]) => f).sort());
    assert.ok(!own.some((c) => c.parameter === 'cursor'));
  });
});
