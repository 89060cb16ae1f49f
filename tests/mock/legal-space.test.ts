/**
 * The legal space's draw (tests/proof/legal-space.ts): K combinations of the mock's variant values from a seed, every
 * value of every axis at least once, the same draw for the same seed; and how the proof judge reports a drawn run.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { FullConfig, FullResult, TestCase, TestResult } from '@playwright/test/reporter';
import { resolveVariants, VARIANT_DEFAULTS, VARIANT_DIMENSIONS } from '../../mock/index.ts';
import MatrixReporter from '../proof/judge.ts';
import {
  COVERING_MINIMUM,
  DEFAULT_COMBINATIONS,
  describeCombination,
  drawable,
  drawLegalSpace,
  EXCLUDED,
  legalCount,
  legalProject,
  legalSeed,
  variantArgs,
} from '../proof/legal-space.ts';
import { checkRecord, failed, resultWith } from '../support/records.ts';

/** Every `axis=value` the combinations take. */
const taken = (combinations: readonly Record<string, string>[]) =>
  new Set(combinations.flatMap((c) => Object.entries(c).map(([name, value]) => `${name}=${value}`)));

describe('legal space: the covering draw', () => {
  test('every value of every axis appears at least once, for many seeds and every K from the minimum up', () => {
    const all = VARIANT_DIMENSIONS.flatMap((d) => drawable(d).map((v) => `${d.name}=${v}`));
    for (let seed = 0; seed < 200; seed++) {
      const k = COVERING_MINIMUM + (seed % 15);
      const combinations = drawLegalSpace(seed * 7919 + 1, k);
      assert.equal(combinations.length, k);
      const seen = taken(combinations);
      assert.deepEqual(
        all.filter((pair) => !seen.has(pair)),
        [],
        `seed ${seed * 7919 + 1}, K ${k}`,
      );
    }
  });

  test('each combination names every axis once, with a value the mock accepts', () => {
    for (const c of drawLegalSpace(42, DEFAULT_COMBINATIONS)) {
      assert.deepEqual(Object.keys(c), Object.keys(VARIANT_DEFAULTS));
      assert.deepEqual(resolveVariants(variantArgs(c)), c);
    }
  });

  test('the same seed gives the same draw; another seed another', () => {
    assert.deepEqual(drawLegalSpace(20261122, 12), drawLegalSpace(20261122, 12));
    assert.notDeepEqual(drawLegalSpace(20261122, 12), drawLegalSpace(20261123, 12));
  });

  test('the rest is random: combinations differ from one another, and values beyond the cover vary by seed', () => {
    const combinations = drawLegalSpace(7, 12);
    assert.equal(new Set(combinations.map((c) => JSON.stringify(c))).size, 12);
    const firsts = new Set(Array.from({ length: 20 }, (_, s) => JSON.stringify(drawLegalSpace(s, 12)[0])));
    assert.ok(firsts.size > 15);
  });

  test('an excluded value is never drawn; the others still are', () => {
    const excluded = ['errors=text', 'data=large'];
    for (let seed = 0; seed < 50; seed++) {
      const seen = taken(drawLegalSpace(seed, 12, VARIANT_DIMENSIONS, excluded));
      assert.ok(!seen.has('errors=text') && !seen.has('data=large'));
      assert.ok(seen.has('errors=problem') && seen.has('data=new-account'));
    }
  });

  test('fewer combinations than values: no cover, still valid combinations', () => {
    const [only] = drawLegalSpace(1, 1);
    assert.ok(only);
    assert.deepEqual(resolveVariants(variantArgs(only)), only);
    assert.throws(() => drawLegalSpace(1, 0), /1 or more combinations/);
  });

  test('the minimum is the widest axis; nothing is excluded unless a false alarm was reported', () => {
    assert.equal(COVERING_MINIMUM, Math.max(...VARIANT_DIMENSIONS.map((d) => d.values.length)));
    assert.ok(DEFAULT_COMBINATIONS >= COVERING_MINIMUM);
    for (const pair of EXCLUDED) assert.match(pair, /^[a-z-]+=[\w-]+$/);
  });

  test('LEGAL_SEED and LEGAL_COMBINATIONS', () => {
    assert.equal(legalSeed('123'), 123);
    assert.equal(legalSeed('4294967295'), 4294967295);
    const fresh = legalSeed(undefined);
    assert.ok(Number.isInteger(fresh) && fresh >= 0 && fresh < 2 ** 32);
    assert.notEqual(new Set(Array.from({ length: 5 }, () => legalSeed(''))).size, 1, 'a new seed each run');
    for (const bad of ['-1', 'x', '1.5', '4294967296']) assert.throws(() => legalSeed(bad), /LEGAL_SEED/);
    assert.equal(legalCount(undefined), 12);
    assert.equal(legalCount('30'), 30);
    for (const bad of ['0', 'many', '2.5']) assert.throws(() => legalCount(bad), /LEGAL_COMBINATIONS/);
  });

  test('project names and descriptions', () => {
    assert.deepEqual(legalProject('legal:123:4'), { seed: 123, index: 4 });
    assert.equal(legalProject('variant:strict'), undefined);
    assert.equal(describeCombination(variantArgs(VARIANT_DEFAULTS)), 'defaults');
    assert.equal(
      describeCombination(variantArgs({ ...VARIANT_DEFAULTS, errors: 'text', prefix: 'api' })),
      'errors=text, prefix=api',
    );
  });
});

describe('proof judge: legal:<seed>:<i> projects', () => {
  const dirs: string[] = [];
  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  const combination = variantArgs({ ...VARIANT_DEFAULTS, scheme: 'exact', data: 'large' });
  const fakeTest = (project: string, title: string) =>
    ({
      title,
      timeout: 120_000,
      annotations: [],
      parent: { project: () => ({ name: project, use: {} }) },
    }) as unknown as TestCase;

  async function judge(events: Array<[string, string, TestResult]>) {
    const dir = mkdtempSync(join(tmpdir(), 'legal-judge-'));
    dirs.push(dir);
    const reporter = new MatrixReporter({ outputDir: dir });
    const names = [...new Set(events.map(([p]) => p))];
    const printed: string[] = [];
    const original = console.log;
    console.log = (...args: unknown[]) => void printed.push(args.map(String).join(' '));
    try {
      reporter.onBegin({
        projects: names.map((name) => ({ name, use: { mock: { variants: combination } } })),
      } as unknown as FullConfig);
      for (const [project, title, result] of events) reporter.onTestEnd(fakeTest(project, title), result);
      const returned = await reporter.onEnd({ status: 'failed', startTime: new Date(), duration: 1 } as FullResult);
      return {
        returned,
        console: printed.join('\n'),
        specificity: JSON.parse(readFileSync(join(dir, 'specificity.json'), 'utf8')),
      };
    } finally {
      console.log = original;
    }
  }

  test('a clean drawn run: the seed printed at the start, its combination listed', async () => {
    const r = await judge([
      ['legal:77:1', 'PAG-SIZE window', resultWith('passed', checkRecord('PAG-SIZE window', 'pass'))],
    ]);
    assert.deepEqual(r.returned, { status: 'passed' });
    assert.match(r.console, /^legal space: 1 combinations drawn from seed 77 \(LEGAL_SEED=77 replays\)$/m);
    assert.match(r.console, /^ {6}scheme=exact, data=large$/m);
    assert.match(r.console, /^legal space: 1\/1 combinations clean \(seed 77\)$/m);
    assert.deepEqual(r.specificity.legal, { seeds: [77], combinations: 1, clean: 1 });
    assert.equal(r.specificity.variants[0].verdict, 'clean');
    assert.equal(r.specificity.variants[0].combination, 'scheme=exact, data=large');
  });

  test('a failed check on a drawn combination is a FALSE ALARM naming the combination and the seed', async () => {
    const r = await judge([
      ['legal:77:1', 'PAG-SIZE window', resultWith('passed', checkRecord('PAG-SIZE window', 'pass'))],
      ['legal:77:2', 'PAG-TOTAL same total', resultWith('failed', failed('PAG-TOTAL same total', 'total 3'))],
    ]);
    assert.deepEqual(r.returned, { status: 'failed' });
    const bad = r.specificity.variants.find((v: { variant: string }) => v.variant === 'legal:77:2');
    assert.equal(bad.verdict, 'FALSE ALARM');
    assert.deepEqual(bad.failedRules, ['PAG-TOTAL']);
    assert.equal(bad.seed, 77);
    assert.deepEqual(bad.variants, combination);
    assert.equal(bad.replay, 'LEGAL_SEED=77 MATRIX_ONLY=legal:77:2');
    assert.match(
      r.console,
      /FALSE ALARM on the combination over-limit=clamp, .*scheme=exact, .*data=large \(seed 77\)/,
    );
    assert.match(r.console, /first failure: PAG-TOTAL same total: PAG-TOTAL violated/);
    assert.match(r.console, /replay: LEGAL_SEED=77 MATRIX_ONLY=legal:77:2 node /);
    assert.match(r.console, /^legal space: 1\/2 combinations clean \(seed 77\)$/m);
  });
});
