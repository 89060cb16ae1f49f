/**
 * Access coverage by construction (core/generate/access-coverage.ts, query-shapes.ts): the covering arrays cover what
 * they claim, every access rule's examples meet every query feature with every key class, merchant and method before
 * any draw, and a defect that only one pair of query features opens on GET is caught on every seed.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { ApiClient } from '../../core/client/http.ts';
import { coverAtOnce } from '../../core/generate/access-coverage.ts';
import { coveringArray, queryFeatures } from '../../core/generate/query-shapes.ts';
import { credentialClass } from '../../core/generate/safe-methods.ts';
import type { AccessCase } from '../../core/model/access.ts';
import { PAYMENTS } from '../../core/model/collection.ts';
import { DEPTH_PROFILES } from '../../core/model/depth.ts';
import type { PageRequest } from '../../core/model/listing.ts';
import { ACCESS_RULES, accessCells } from '../../core/model/rules.ts';
import type { Target } from '../../core/model/target.ts';
import { RuleViolation } from '../../core/model/verdict.ts';
import { accessProperty } from '../../core/run/access-property.ts';
import { checkContext } from '../../core/run/check.ts';
import { startMock } from '../../mock/index.ts';
import { paymentsCases } from '../support/access.ts';
import { everyKeyTarget, mockTarget } from '../support/target.ts';

/** Every `strength`-tuple of values of distinct factors is in some row. */
function covers(rows: number[][], sizes: number[], strength: 1 | 2): boolean {
  for (let i = 0; i < sizes.length; i++)
    for (let a = 0; a < (sizes[i] as number); a++) {
      if (strength === 1 && !rows.some((r) => r[i] === a)) return false;
      for (let j = i + 1; strength === 2 && j < sizes.length; j++)
        for (let b = 0; b < (sizes[j] as number); b++) if (!rows.some((r) => r[i] === a && r[j] === b)) return false;
    }
  return true;
}

describe('coveringArray', () => {
  test('strength 2 covers every pair, strength 1 every value, the same rows on every call', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 7 }), (sizes) => {
        for (const s of [1, 2] as const) {
          const rows = coveringArray(sizes, s);
          assert.ok(covers(rows, sizes, s), `${s}: ${sizes}`);
          assert.deepEqual(rows, coveringArray(sizes, s));
        }
        assert.equal(coveringArray(sizes, 1).length, Math.max(...sizes));
      }),
    );
  });
});

/** Which value of each query feature a query takes (the index in its feature), by the features of payments. */
function featureValues(q: PageRequest, t: Target): string[] {
  const features = queryFeatures(t.defaultLimit, PAYMENTS, {
    filter: { field: 'status', value: 'COMPLETED' },
    overMax: true,
  });
  return features.map((f, i) => {
    const keys = [...new Set(f.flatMap((v) => Object.keys(v)))] as Array<keyof PageRequest>;
    const at = f.findIndex((v) => keys.every((k) => JSON.stringify(v[k]) === JSON.stringify(q[k])));
    return `f${i}=${at}`;
  });
}

describe('the access matrix meets every query feature with every key, merchant and method before any draw', () => {
  const listed = ACCESS_RULES.filter((r) => accessCells(r).endpoints.includes('list'));
  for (const depth of ['standard', 'quick'] as const) {
    test(`${depth}: every ${depth === 'standard' ? 'pair' : 'value'} of key class, merchant, feature and method`, () => {
      const t = { ...everyKeyTarget(), depth: DEPTH_PROFILES[depth] };
      for (const rule of listed) {
        const cases = paymentsCases(t, rule);
        if (!cases) continue;
        const list = cases.examples.filter((c) => c.endpoint === 'list' && !c.preflight);
        const factorsOf = (c: AccessCase) => [
          `key=${credentialClass(c.credential)}`,
          `merchant=${c.merchant}`,
          ...featureValues(c.query, t),
          `method=${c.method ?? 'GET'}`,
        ];
        const rows = list.map(factorsOf);
        // The rule's key classes (its credentials; the header grammar's extras are the spellings' coverage).
        const keys = new Set(list.filter((c) => Object.keys(c.query).length > 0).map((c) => factorsOf(c)[0] as string));
        const merchants = new Set(rows.map((r) => r[1] as string));
        const features = queryFeatures(t.defaultLimit, PAYMENTS, { overMax: true });
        const values = features.flatMap((f, i) => f.map((_, v) => `f${i}=${v}`));
        const methods = ['GET', 'HEAD', 'OPTIONS'].map((m) => `method=${m}`);
        const has = (a: string, b: string) => rows.some((r) => r.includes(a) && r.includes(b));
        for (const v of values) {
          for (const other of depth === 'standard' ? [...keys, ...merchants, ...methods, ...values] : [v]) {
            if (other === v || other.split('=')[0] === v.split('=')[0]) continue;
            const onGet = other.startsWith('f')
              ? rows.some((r) => r.includes(v) && r.includes(other) && r.includes('method=GET'))
              : has(v, other);
            assert.ok(onGet, `${rule} at ${depth}: ${v} with ${other}`);
          }
          assert.ok(
            rows.some((r) => r.includes(v)),
            `${rule} at ${depth}: ${v}`,
          );
        }
        for (const m of methods)
          for (const k of keys) if (depth === 'standard') assert.ok(has(m, k as string), `${rule}: ${m} × ${k}`);
      }
    });
  }
});

/** The verdict of MODE-LIVE-SANDBOX's access check against the mock, on each seed. */
async function verdicts(opts: { faults?: string[]; variants?: string[] }, seeds: number[]): Promise<string[]> {
  const mock = await startMock({ port: 0, ...opts });
  try {
    const out: string[] = [];
    for (const seed of seeds) {
      const t = mockTarget(mock.env, { fcSeed: seed, depth: DEPTH_PROFILES.standard });
      const ctx = checkContext(t, new ApiClient(t), 'MODE-LIVE-SANDBOX');
      try {
        await accessProperty(ctx, PAYMENTS);
        out.push('pass');
      } catch (error) {
        if (!(error instanceof RuleViolation)) throw error;
        out.push(`fail ${error.violation.rule}`);
      }
    }
    return out;
  } finally {
    await mock.stop();
  }
}

describe('a defect that one pair of query features opens on GET is caught on every seed', () => {
  const seeds = Array.from({ length: 10 }, (_, i) => 1000 + i * 7919);
  test('live-on-sandbox-desc-deep-get: MODE-LIVE-SANDBOX fails on ten seeds out of ten', async () => {
    assert.deepEqual(
      await verdicts({ faults: ['live-on-sandbox-desc-deep-get'] }, seeds),
      seeds.map(() => 'fail MODE-LIVE-SANDBOX'),
    );
  });
  test('the clean mock, and one that refuses a limit over its maximum with 400: pass', async () => {
    assert.deepEqual(await verdicts({}, seeds.slice(0, 2)), ['pass', 'pass']);
    assert.deepEqual(await verdicts({ variants: ['over-limit=reject'] }, seeds.slice(0, 2)), ['pass', 'pass']);
  });
});

describe('coverAtOnce: quick, every factor of a rule at once', () => {
  const none = { credential: { kind: 'none' as const } };
  const item = (i: number) => ({ credential: { kind: 'malformed' as const, header: `h${i}` } });
  test('each item once with GET, every endpoint, on GET list rows every merchant and feature value; the wideners alone', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.boolean(), fc.integer({ min: 1, max: 4 }), (n, both, m) => {
        const items = [none, ...Array.from({ length: n - 1 }, (_, i) => item(i))];
        const endpoints = both ? (['status', 'list'] as const) : (['list'] as const);
        const merchants = (['sandbox', 'otherSandbox', 'live', 'unknown'] as const).slice(0, m);
        const features = queryFeatures(10, PAYMENTS, { filter: { field: 'status', value: 'COMPLETED' } });
        const rows = coverAtOnce(items, endpoints, merchants, features, { limit: 101 });
        const get = rows.filter((r) => r.form.method === 'GET' && r.query.limit !== 101);
        for (const i of items) assert.ok(get.some((r) => r.item === i));
        for (const e of endpoints) assert.ok(get.some((r) => r.endpoint === e));
        const list = get.filter((r) => r.endpoint === 'list');
        for (const mm of merchants) assert.ok(list.some((r) => r.merchant === mm));
        for (const f of features)
          for (const v of f)
            assert.ok(list.some((r) => JSON.stringify({ ...r.query, ...v }) === JSON.stringify(r.query)));
        // A limit past the maximum, HEAD, OPTIONS and the pre-flight: each once, with nothing else of the query.
        assert.deepEqual(
          rows.filter((r) => r.query.limit === 101).map((r) => r.query),
          [{ limit: 101 }],
        );
        const others = rows.filter((r) => r.form.method !== 'GET');
        assert.deepEqual(
          others.map((r) => r.form.name),
          ['HEAD', 'OPTIONS', 'CORS pre-flight'],
        );
        for (const r of others) assert.deepEqual([r.endpoint, r.query], ['list', {}]);
      }),
    );
  });
});
