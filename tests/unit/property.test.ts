import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import fc from 'fast-check';
import type { Target } from '../../core/model/target.ts';
import { RuleViolation, type Violation } from '../../core/model/verdict.ts';
import { forAll, grepFor, propertySeed } from '../../core/run/property.ts';
import { testTarget } from '../support/target.ts';

function target(over: Partial<Target> = {}): Target {
  return testTarget({ keys: { test: 'sk_test_PropertyUnit01' }, fcSeed: 42, fcNumRuns: 30, ...over });
}

/** The check the properties belong to: its title seeds them and names them in replay lines. */
const TITLE = 'PAG-SIZE';
const ctxOf = (over: Partial<Target> = {}) => ({ target: target(over), title: TITLE });

const sizeViolation = (n: number): Violation => ({ rule: 'PAG-SIZE', expected: 'n < 50', received: String(n) });
const describeN = (n: number) => `n=${n}`;

/** Runs forAll expecting a RuleViolation; returns it with the parsed run seed and path. */
async function failing<T>(
  t: Target,
  arb: fc.Arbitrary<T>,
  predicate: (value: T) => Promise<Violation | undefined>,
  describeValue: (value: T) => string,
  examples?: T[],
): Promise<{ error: RuleViolation; seed: number; path: string; shrinks: number }> {
  try {
    await forAll({ target: t, title: TITLE }, arb, predicate, { describe: describeValue, examples });
  } catch (error) {
    assert.ok(error instanceof RuleViolation, `expected a RuleViolation, got ${String(error)}`);
    const m = /\n {2}Counterexample \(run seed (\d+), property seed \d+, path "([\d:]+)", (\d+) shrinks\): /.exec(
      error.message,
    );
    assert.ok(m, `no counterexample line in:\n${error.message}`);
    return { error, seed: Number(m[1]), path: m[2] as string, shrinks: Number(m[3]) };
  }
  assert.fail('forAll passed a failing property');
}

let savedPath: string | undefined;
beforeEach(() => {
  savedPath = process.env.FC_PATH;
  delete process.env.FC_PATH;
});
afterEach(() => {
  if (savedPath === undefined) delete process.env.FC_PATH;
  else process.env.FC_PATH = savedPath;
});

describe('forAll: passing properties', () => {
  test('runs FC_NUM_RUNS cases, examples first, and resolves', async () => {
    const seen: number[] = [];
    await forAll(
      ctxOf({ fcNumRuns: 30 }),
      fc.integer({ min: 100, max: 1000 }),
      async (n) => {
        seen.push(n);
        return undefined;
      },
      { describe: describeN, examples: [7, 8] },
    );
    assert.equal(seen.length, 30);
    assert.deepEqual(seen.slice(0, 2), [7, 8]);
    assert.ok(seen.slice(2).every((n) => n >= 100 && n <= 1000));
  });

  test('opts.numRuns overrides FC_NUM_RUNS', async () => {
    let calls = 0;
    await forAll(
      ctxOf({ fcNumRuns: 30 }),
      fc.nat(),
      async () => {
        calls += 1;
        return undefined;
      },
      { describe: String, numRuns: 7 },
    );
    assert.equal(calls, 7);
  });

  test('the same seed generates the same cases', async () => {
    const run = async () => {
      const seen: number[] = [];
      await forAll(ctxOf({ fcSeed: 99 }), fc.nat(1_000_000), async (n) => void seen.push(n), {
        describe: String,
        numRuns: 10,
      });
      return seen;
    };
    assert.deepEqual(await run(), await run());
  });

  test("a property's seed derives from the run seed and the check's title alone", () => {
    const seed = propertySeed(123456789, 'PAG-SIZE any window');
    assert.equal(seed, propertySeed(123456789, 'PAG-SIZE any window'));
    assert.ok(Number.isInteger(seed) && seed >= 0 && seed <= 0x7fffffff);
    assert.notEqual(seed, propertySeed(123456790, 'PAG-SIZE any window'), 'another run seed');
    assert.notEqual(seed, propertySeed(123456789, 'PAG-SIZE another window'), 'another check');
  });
});

describe('forAll: a failing property', () => {
  test('a RuleViolation naming seed, path, shrinks and the shrunk counterexample, with a replay line', async () => {
    const { error, seed, path, shrinks } = await failing(
      target({ fcSeed: 42 }),
      fc.integer({ min: 0, max: 1000 }),
      async (n) => (n >= 50 ? sizeViolation(n) : undefined),
      describeN,
    );
    assert.equal(seed, 42);
    assert.ok(shrinks > 0);
    const lines = error.message.split('\n');
    assert.equal(lines[0], 'PAG-SIZE violated (§4.2 r1): `data.length` = max(0, min(limit, total - offset))');
    assert.equal(lines[1], '  Expected: n < 50');
    assert.equal(lines[2], '  Received: 50', 'the violation of the shrunk case is reported');
    const own = propertySeed(42, TITLE);
    assert.equal(
      lines[3],
      `  Counterexample (run seed 42, property seed ${own}, path "${path}", ${shrinks} shrinks): n=50`,
    );
    assert.equal(
      lines[4],
      `  Replay: FC_SEED=42 FC_PATH=${path} npm run conformance -- --reports reports-replay-42-pag-size --grep PAG-SIZE`,
    );
    assert.equal(lines.length, 5);
    assert.equal(error.counterexample?.startsWith('(run seed 42, property seed'), true);
    assert.equal(error.violation.rule, 'PAG-SIZE');
  });

  test('replaying with FC_SEED and FC_PATH evaluates the counterexample first and reports it again', async () => {
    const arb = fc.integer({ min: 0, max: 1000 });
    const predicate = async (n: number) => (n >= 50 ? sizeViolation(n) : undefined);
    const first = await failing(target({ fcSeed: 42 }), arb, predicate, describeN);
    process.env.FC_PATH = first.path;
    const seen: number[] = [];
    const replay = await failing(
      target({ fcSeed: first.seed }),
      arb,
      async (n) => {
        seen.push(n);
        return predicate(n);
      },
      describeN,
    );
    assert.equal(seen[0], 50);
    assert.ok(seen.length <= 5, `replay evaluated ${seen.length} cases`);
    assert.ok(replay.error.message.includes('): n=50\n'));
    assert.ok(replay.error.message.includes(`Replay: FC_SEED=${first.seed} FC_PATH=${first.path}`));
  });

  test('a failing example is found first and named', async () => {
    const seen: number[] = [];
    const { error } = await failing(
      target({ fcSeed: 7 }),
      fc.integer({ min: 0, max: 10 }),
      async (n) => {
        seen.push(n);
        return n === 777 ? sizeViolation(n) : undefined;
      },
      describeN,
      [777],
    );
    assert.equal(seen[0], 777);
    assert.match(error.message, /\): n=777\n/);
    assert.equal(error.drawn, false, 'an example is a case every run tries');
  });

  test('a failure on a case drawn from the seed says so; the check is marked as drawing from the seed', async () => {
    const { error } = await failing(
      target({ fcSeed: 42 }),
      fc.integer({ min: 0, max: 1000 }),
      async (n) => (n >= 50 ? sizeViolation(n) : undefined),
      describeN,
      [1, 2],
    );
    assert.equal(error.drawn, true);
    const ctx: { target: Target; title: string; seeded?: boolean } = ctxOf();
    await forAll(ctx, fc.constant(1), async () => undefined, { describe: describeN });
    assert.equal(ctx.seeded, true);
  });

  test('without FC_SEED a random seed is used and printed in both lines', async () => {
    const { error, seed } = await failing(
      target({ fcSeed: undefined }),
      fc.constant(60),
      async (n) => sizeViolation(n),
      describeN,
    );
    assert.ok(Number.isInteger(seed) && seed >= 0);
    assert.ok(error.message.includes(`Replay: FC_SEED=${seed} FC_PATH=`));
  });

  test('shrinking is bounded: at most 40 predicate evaluations after the first failure', async () => {
    // Every element must be >= 1000: shrinking 10 large integers towards 1000 takes far more than 40 tries.
    const arb = fc.array(fc.integer({ min: 0, max: 1_000_000_000 }), { minLength: 10, maxLength: 10 });
    let calls = 0;
    let firstFailure = 0;
    const { error } = await failing(
      target({ fcSeed: 42 }),
      arb,
      async (a) => {
        calls += 1;
        if (a.every((x) => x >= 1000)) {
          firstFailure ||= calls;
          return { rule: 'SRT-AMOUNT', expected: 'x', received: a.join(',') };
        }
        return undefined;
      },
      (a) => a.join(','),
      [Array.from({ length: 10 }, () => 500_000_000)],
    );
    assert.equal(firstFailure, 1, 'the example fails first');
    assert.ok(calls <= firstFailure + 40, `${calls} predicate evaluations`);
    assert.ok(calls > firstFailure, 'it did shrink');
    assert.match(error.message, /^SRT-AMOUNT violated/);
    // The reported counterexample still fails the property.
    const m = /\): ([\d,]+)\n/.exec(error.message);
    assert.ok(m);
    const values = (m[1] as string).split(',').map(Number);
    assert.equal(values.length, 10);
    assert.ok(values.every((x) => x >= 1000));
  });
});

describe('forAll: errors that are not violations', () => {
  test('are rethrown as they are', async () => {
    await assert.rejects(
      forAll(
        ctxOf(),
        fc.nat(100),
        async () => {
          throw new TypeError('boom');
        },
        { describe: String },
      ),
      { name: 'TypeError', message: 'boom' },
    );
  });

  test('do not shrink without bound (each evaluation may cost requests)', async () => {
    const arb = fc.array(fc.integer({ min: 0, max: 1_000_000_000 }), { minLength: 10, maxLength: 10 });
    let calls = 0;
    await assert.rejects(
      forAll(
        ctxOf({ fcSeed: 42 }),
        arb,
        async (a) => {
          calls += 1;
          if (a.every((x) => x >= 1000)) throw new Error('TransportError stand-in');
          return undefined;
        },
        { describe: (a) => a.join(','), examples: [Array.from({ length: 10 }, () => 500_000_000)] },
      ),
      { message: 'TransportError stand-in' },
    );
    assert.ok(calls <= 1 + 40, `${calls} predicate evaluations`);
  });
});

describe('grepFor: the replay line selects exactly the failing check', () => {
  test('a plain rule id stays as it is; a title is regex-escaped and shell-quoted, and matches itself only', () => {
    assert.equal(grepFor('PAG-SIZE'), 'PAG-SIZE');
    const title = "LIM-CAP limit above 100 (any notation) isn't [ok] a|b 1.5 $x";
    const quoted = grepFor(title);
    assert.ok(quoted.startsWith("'") && quoted.endsWith("'"));
    // What the shell hands to --grep: the single-quoted text, with '\'' as one quote.
    const argument = quoted.slice(1, -1).replace(/'\\''/g, "'");
    assert.ok(new RegExp(argument).test(`specs/8-limits.spec.ts › §8 › ${title} @cutover`));
    assert.ok(!new RegExp(argument).test(title.replace('(any notation)', 'any notation')));
  });
});
