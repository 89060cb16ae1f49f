/**
 * Depth as a run setting (--depth, CONFORMANCE_DEPTH; core/model/depth.ts): resolved once with the configuration and
 * refused like every setting (a near miss named, exit 2); the property runner scales every property's drawn cases by
 * it (quick few, at least one; deep at least five times standard) and keeps its deterministic examples first; a check
 * quick cannot judge soundly says "not exercised (quick)" in one call, never a bare pass; and every report names the
 * depth, diff warns when two depths are compared, a baseline applies to any depth.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { diffRuns, diffText } from '../../commands/diff.ts';
import { type Collection, PAYMENTS } from '../../core/model/collection.ts';
import { DEPTH_PROFILES, depthBelow, drawsAt, examplesAt } from '../../core/model/depth.ts';
import type { Target } from '../../core/model/target.ts';
import { beyondDepth, checkContext } from '../../core/run/check.ts';
import { ConfigError, resolveTarget } from '../../core/run/config.ts';
import { coversOnce, selectionsOn, spreadOn, targetFor, walkPagesOn } from '../../core/run/learn.ts';
import { forAll } from '../../core/run/property.ts';
import { recordOf } from '../../core/run/record.ts';
import { bundledMockEnv } from '../../fixtures/mock-target.ts';
import { judgeBaseline } from '../../reporters/baseline.ts';
import { conformanceHtml } from '../../reporters/html.ts';
import { junitXml } from '../../reporters/junit.ts';
import { type Summary, summarize } from '../../reporters/summary.ts';
import { consoleTable, markdown } from '../../reporters/summary-text.ts';
import { checkRecord, runInfo } from '../support/records.ts';
import { testTarget } from '../support/target.ts';

const resolve = (env: NodeJS.ProcessEnv) => resolveTarget(env, bundledMockEnv);

describe('--depth: resolved once, refused like every setting', () => {
  test('standard by default; quick and deep by name, in any case; the request budget follows the depth', () => {
    assert.equal(resolve({}).depth.name, 'standard');
    assert.equal(resolve({ CONFORMANCE_DEPTH: ' Quick ' }).depth.name, 'quick');
    const deep = resolve({ CONFORMANCE_DEPTH: 'deep' });
    assert.deepEqual([deep.depth.name, deep.maxRequests], ['deep', DEPTH_PROFILES.deep.budget]);
    assert.equal(resolve({ CONFORMANCE_DEPTH: 'deep', API_MAX_REQUESTS: '900' }).maxRequests, 900);
    assert.equal(resolve({}).fcNumRuns, 25, 'FC_NUM_RUNS keeps its meaning: the runs at depth standard');
  });

  test('an unknown depth is a configuration error, naming its near miss', () => {
    assert.throws(
      () => resolve({ CONFORMANCE_DEPTH: 'quik' }),
      (e: unknown) =>
        e instanceof ConfigError &&
        e.problems.includes('CONFORMANCE_DEPTH (--depth) must be quick, standard or deep: did you mean quick?'),
    );
  });

  test('--help states each depth with the request bound of a default run', () => {
    const variables = JSON.parse(readFileSync('core/run/variables.json', 'utf8')) as Array<{ name: string }>;
    assert.ok(variables.some((v) => v.name === 'CONFORMANCE_DEPTH'));
    const help = readFileSync('bin/help.js', 'utf8');
    assert.match(help, /requestBound/);
    assert.ok(DEPTH_PROFILES.deep.requestBound > DEPTH_PROFILES.standard.requestBound);
    assert.ok(DEPTH_PROFILES.quick.requestBound < DEPTH_PROFILES.standard.requestBound);
  });
});

describe('the property runner follows the depth', () => {
  test('covered once (quick): each listing once and each selection once, the listings in turn; walks of a few pages', () => {
    const quick = DEPTH_PROFILES.quick;
    assert.ok(coversOnce(quick) && !coversOnce(DEPTH_PROFILES.standard) && !coversOnce(DEPTH_PROFILES.deep));
    const all = ['unfiltered', 'filtered', 'up', 'down', 'filtered down'];
    const on = (depth: typeof quick) => [0, 1, 2].map((i) => selectionsOn(PAYMENTS, i, all, { depth, listings: 3 }));
    assert.deepEqual(on(quick), [
      ['unfiltered', 'filtered', 'filtered down'],
      ['unfiltered', 'up'],
      ['unfiltered', 'down'],
    ]);
    assert.deepEqual(on(DEPTH_PROFILES.standard), [all, all, all]);
    assert.deepEqual([0, 1, 2].map(spreadOn({ depth: quick }, 3, all)), on(quick));
    assert.deepEqual([0, 1].map(spreadOn({ depth: DEPTH_PROFILES.deep }, 2, all)), [all, all]);
    assert.equal(walkPagesOn(PAYMENTS, 12, quick), quick.walkPages);
    assert.equal(walkPagesOn(PAYMENTS, 12, DEPTH_PROFILES.standard), 12);
    assert.equal(walkPagesOn({ ...PAYMENTS, spec: undefined }, 12, DEPTH_PROFILES.deep), 4);
  });

  test('drawsAt: quick few but at least one, standard as written, deep five times', () => {
    assert.deepEqual(
      [drawsAt(DEPTH_PROFILES.quick, 25), drawsAt(DEPTH_PROFILES.quick, 2), drawsAt(DEPTH_PROFILES.quick, 0)],
      [5, 1, 0],
    );
    assert.equal(drawsAt(DEPTH_PROFILES.standard, 25), 25);
    assert.equal(drawsAt(DEPTH_PROFILES.deep, 25), 125);
    assert.deepEqual(examplesAt({ examples: 2 }, [1, 2, 3]), [1, 2]);
    assert.deepEqual(examplesAt(DEPTH_PROFILES.quick, [1, 2, 3]), [1, 2, 3]);
  });

  test('examplesAt: trimmed, the examples still meet every place (a listing) once, the first of each', () => {
    const cases = [
      { i: 0, n: 'a' },
      { i: 0, n: 'b' },
      { i: 0, n: 'c' },
      { i: 1, n: 'd' },
      { i: 1, n: 'e' },
      { i: 2, n: 'f' },
    ];
    const names = (xs: typeof cases) => xs.map((x) => x.n).join('');
    assert.equal(names(examplesAt({ examples: 2 }, cases)), 'ab');
    assert.equal(names(examplesAt({ examples: 2 }, cases, (x) => x.i)), 'abdf');
    assert.equal(names(examplesAt({ examples: 4 }, cases, (x) => x.i)), 'abcdf');
    assert.equal(names(examplesAt({ examples: 'all' }, cases, (x) => x.i)), 'abcdef');
  });

  async function runs(depth: Target['depth'], numRuns?: number) {
    const seen: number[] = [];
    const target = testTarget({ fcSeed: 7, fcNumRuns: 25, depth });
    await forAll(
      { target, title: 'PAG-SIZE runs' },
      fc.integer({ min: 100, max: 999 }),
      async (n) => {
        seen.push(n);
        return undefined;
      },
      { describe: String, examples: [1, 2, 3], ...(numRuns ? { numRuns } : {}) },
    );
    return seen;
  }

  test('examples first at every depth; the drawn cases scaled: quick a fifth, deep five times', async () => {
    const standard = await runs(DEPTH_PROFILES.standard);
    const quick = await runs(DEPTH_PROFILES.quick);
    const deep = await runs(DEPTH_PROFILES.deep);
    for (const seen of [standard, quick, deep]) assert.deepEqual(seen.slice(0, 3), [1, 2, 3]);
    assert.deepEqual([standard.length, quick.length, deep.length], [25, 3 + 4, 3 + 110]);
    assert.ok(deep.length - 3 >= 5 * (standard.length - 3), 'deep draws at least 5 times standard');
    assert.equal((await runs(DEPTH_PROFILES.quick, 5)).length, 3 + 1, "a property's own count scaled, at least one");
  });
});

describe('a declared collection is searched one depth below the run', () => {
  test('depthBelow: standard gives quick, deep standard, quick stays quick', () => {
    assert.equal(depthBelow(DEPTH_PROFILES.standard).name, 'quick');
    assert.equal(depthBelow(DEPTH_PROFILES.deep).name, 'standard');
    assert.equal(depthBelow(DEPTH_PROFILES.quick).name, 'quick');
  });
  test("targetFor: payments keeps the run's depth, another collection gets the one below", () => {
    const t = { maxRecords: 5000, depth: DEPTH_PROFILES.deep } as unknown as Target;
    assert.equal(targetFor(t, PAYMENTS).depth.name, 'deep');
    const { spec: _, ...rest } = PAYMENTS;
    const other: Collection = { ...rest, name: 'refunds' };
    assert.equal(targetFor(t, other).depth.name, 'standard');
    assert.equal(targetFor(t, other).maxRecords, 300);
  });
});

describe('beyondDepth: "not exercised (quick)", never a bare pass', () => {
  test('at quick the check stops and its record says why; at standard and deep it goes on', () => {
    const quick = checkContext(
      testTarget({ depth: DEPTH_PROFILES.quick }),
      {} as never,
      'PAG-PARTITION',
      'PAG-PARTITION a walk',
    );
    assert.equal(beyondDepth(quick, 'a walk at every limit takes about 100 requests'), true);
    const r = recordOf(quick, { threw: false }, 0);
    assert.deepEqual(
      [r.verdict, r.cause, r.reason],
      ['not exercised', 'depth', 'at depth quick: a walk at every limit takes about 100 requests'],
    );
    for (const depth of [DEPTH_PROFILES.standard, DEPTH_PROFILES.deep]) {
      const ctx = checkContext(testTarget({ depth }), {} as never, 'PAG-PARTITION');
      assert.equal(beyondDepth(ctx, 'a walk'), false);
      assert.equal(recordOf(ctx, { threw: false }, 3).verdict, 'pass');
    }
  });
});

describe('the depth in every report', () => {
  const quickly = (verdict: 'pass' | 'not exercised'): Summary =>
    summarize(
      [
        checkRecord(
          'PAG-PARTITION a walk',
          verdict,
          verdict === 'pass' ? {} : { cause: 'depth', reason: 'at depth quick: a walk' },
        ),
      ],
      runInfo({ depth: 'quick' }),
    );

  test('the console, conformance.md, conformance.html and JUnit name it; a rule quick could not judge says so', () => {
    const s = quickly('not exercised');
    assert.equal(s.depth, 'quick');
    assert.match(
      consoleTable(s, 'conformance.md'),
      /^Rule matrix \(seed \d+ — rerun with FC_SEED=\d+, depth quick\)$/m,
    );
    assert.match(consoleTable(s, 'conformance.md'), / PAG-PARTITION +MUST +not exercised \(quick\) /);
    assert.match(markdown(s), /Run status: .*; depth quick; /);
    assert.match(markdown(s), /\| PAG-PARTITION \| .* \| not exercised \(quick\) \|/);
    assert.match(conformanceHtml(s), /; depth quick<\/p>/);
    assert.match(junitXml(s), /<property name="depth" value="quick"\/>/);
  });

  test('diff warns when two runs of different depths are compared, and not otherwise', () => {
    const d = diffRuns(quickly('pass'), { ...quickly('pass'), depth: 'standard' });
    assert.match(diffText(d), /^warning: A ran at depth quick, B at depth standard: /);
    assert.equal(diffRuns(quickly('pass'), quickly('pass')).depthWarning, undefined);
    const old = { ...quickly('pass') } as Partial<Summary>;
    delete old.depth;
    assert.match(diffText(diffRuns(old as Summary, quickly('pass'))), /A ran at depth standard, B at depth quick/);
  });

  test('a baseline applies to any depth: a check quick did not exercise leaves its entry unjudged, never fixed', () => {
    const entry = { rule: 'PAG-PARTITION' as const, match: 'PAG-PARTITION', reason: 'VEN-1', until: '2099-01-01' };
    const baseline = { file: 'b.json', entries: [entry], date: '2026-11-28' };
    const quick = checkRecord('PAG-PARTITION a walk', 'not exercised', { cause: 'depth', reason: 'at depth quick' });
    assert.deepEqual(judgeBaseline([quick], baseline).deviations.unjudged, [entry]);
    const standard = checkRecord('PAG-PARTITION a walk', 'pass');
    assert.deepEqual(judgeBaseline([standard], baseline).deviations.fixed, [entry]);
  });
});
