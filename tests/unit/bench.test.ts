/**
 * scripts/bench/figures.ts, the bench's pure part: medians and spreads, the targets and their verdicts (met at the
 * threshold, not met past it, n/a when not measured) — the standard run against the framework's floor, each depth's
 * requests, times and share of the proof's faults caught — the console table, and the options (scripts/bench/main.ts).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type Figures, type Load, loadText, median, render, rows, runsOf } from '../../scripts/bench/figures.ts';
import { parseOptions } from '../../scripts/bench/main.ts';

const runs = (
  seconds: number[],
  requests?: number[],
  watch?: { cpuSeconds: number; observeMs: number; keyScanMs: number },
) =>
  runsOf(
    seconds.map((s, i) => ({
      seconds: s,
      exitCode: 0,
      requests: requests?.[i],
      ...(watch
        ? {
            cpuSeconds: watch.cpuSeconds,
            watch: { observeMs: watch.observeMs, keyScanMs: watch.keyScanMs, judgeMs: 0 },
          }
        : {}),
    })),
  );
const load = (rps: number, extra: Partial<Load> = {}): Load => ({
  rps,
  p99: 1,
  non2xx: 0,
  errors: 0,
  timeouts: 0,
  ...extra,
});
/** The verdict of each target row, by the start of its name. */
const verdicts = (f: Figures) =>
  Object.fromEntries(rows(f).flatMap((r) => (r.target ? [[r.measure.split(' (')[0], r.met]] : [])));
const pacing = { limit: 10, accepted: 1126, spanSeconds: 125, wallSeconds: 130, refused: 0 };
const faults = (caught: number) => ({ caught, total: 112, missed: [] });

describe('bench: medians and spreads', () => {
  test('median of an odd and an even count, whatever the order', () => {
    assert.equal(median([5.2, 4.8, 9.9]), 5.2);
    assert.equal(median([4, 1, 3, 2]), 2.5);
    assert.equal(median([7]), 7);
  });

  test('runsOf: median, min and max of the wall times, and the median of the requests reported', () => {
    const r = runs([6.1, 5.2, 5.9, 12.4, 5.4], [1118, 1120, 1116, 1300, 1119]);
    assert.deepEqual([r.median, r.min, r.max, r.requests], [5.9, 5.2, 12.4, 1119]);
    assert.equal(runs([2, 3]).requests, undefined, 'no run reported requests');
  });
});

describe('bench: targets', () => {
  const full: Figures = {
    conformance: runs([3, 3, 3], [1750, 1750, 1750], { cpuSeconds: 10, observeMs: 499, keyScanMs: 200 }),
    floor: runs([2, 2, 2]),
    depths: {
      quick: {
        mock: { seconds: 2.5, exitCode: 0, requests: 300 },
        limited: { seconds: 35, exitCode: 0, requests: 300 },
        faults: faults(95),
      },
      standard: { limited: { seconds: 150, exitCode: 0, requests: 1500, pacing }, faults: faults(100) },
      deep: { mock: { seconds: 9, exitCode: 0, requests: 6000 }, faults: faults(100) },
    },
    mock10: load(10_000),
    prism: load(2000),
    memory: { startMB: 80, endMB: 95.9, seconds: 73 },
  };

  test('each target is met at its threshold', () => {
    assert.deepEqual(verdicts(full), {
      'standard run / the floor': true,
      'quick: requests': true,
      'quick: wall at 10 req/s, 40 ms': true,
      'standard: requests': true,
      'deep: requests': true,
      "quick: the proof's faults caught": true,
      "deep: the proof's faults caught": true,
      "watching every answer: share of the full runs' CPU": true,
      'rate-limited sandbox': true,
      'mock / Prism, 10 connections': true,
      'mock memory': true,
    });
  });

  test('and not met just past it', () => {
    const past: Figures = {
      conformance: runs([3.01, 3.01], [1751, 1751], { cpuSeconds: 10, observeMs: 500, keyScanMs: 200 }),
      floor: runs([2, 2]),
      depths: {
        quick: {
          mock: { seconds: 2.5, exitCode: 0, requests: 301 },
          limited: { seconds: 35.1, exitCode: 0, requests: 301 },
          faults: faults(94),
        },
        standard: {
          limited: { seconds: 150, exitCode: 0, requests: 1500, pacing: { ...pacing, accepted: 1125, refused: 3 } },
          faults: faults(100),
        },
        deep: { mock: { seconds: 9, exitCode: 0, requests: 6001 }, faults: faults(99) },
      },
      mock10: load(9999),
      prism: load(2000),
      memory: { startMB: 80, endMB: 96, seconds: 73 },
    };
    assert.deepEqual(Object.values(verdicts(past)), Array(11).fill(false));
    const quickFailed = { ...full, depths: { ...full.depths, quick: { limited: { seconds: 20, exitCode: 1 } } } };
    assert.equal(verdicts(quickFailed)['quick: wall at 10 req/s, 40 ms'], false, 'exit 0 too');
  });

  test('a figure not measured gives n/a, never met or not met; Prism skipped says why', () => {
    const none = rows({ prism: 'n/a (--skip-prism)' }).filter((r) => r.target);
    assert.ok(none.every((r) => r.met === undefined));
    assert.equal(none.find((r) => r.measure.startsWith('mock / Prism'))?.value, 'n/a (--skip-prism)');
    assert.equal(none.find((r) => r.measure.startsWith('watching'))?.value, 'not measured (needs /proc: Linux)');
    // The runs at 10 requests a second take minutes: an option of their own, which the row names.
    const limited = rows({}).filter((r) => r.measure.includes('10 req/s') || r.measure.startsWith('rate-limited'));
    assert.equal(limited.length, 4);
    assert.ok(limited.every((r) => r.value === 'not measured (npm run bench -- --rate-limited)'));
  });

  test('values as shown: the ratio to the floor, the share of standard catches, memory from start to end', () => {
    const shown = Object.fromEntries(rows(full).map((r) => [r.measure.split(' (')[0], r.value]));
    assert.equal(shown['standard run / the floor'], '1.50×');
    assert.equal(shown["quick: the proof's faults caught"], "95/112 (95.0 % of standard's)");
    assert.equal(shown["standard: the proof's faults caught"], '100/112');
    assert.equal(shown['quick: wall at 10 req/s, 40 ms'], '35.0 s for 300 requests');
    assert.equal(shown['deep: wall on the mock'], '9.00 s');
    assert.equal(shown['standard: wall on the mock'], '3.00 s');
    assert.equal(shown['mock / Prism, 10 connections'], '5.0×');
    assert.equal(shown['mock memory'], '80.0 → 95.9 MB over 73 s (+19.9 %)');
    assert.equal(shown['standard run on the mock, wall'], 'median 3.00 s (3.00–3.00), exit 0 0 0');
    assert.equal(
      shown['rate-limited sandbox'],
      'used 90.0 % of the allowed rate (1126 requests in 125.0 s at the target, 0 refused with 429; the whole run 1.15 × requests / limit)',
    );
  });

  test('a load with non-2xx answers, errors or timeouts is flagged', () => {
    assert.doesNotMatch(loadText(load(100)), /FLAG/);
    for (const bad of [{ non2xx: 1 }, { errors: 2 }, { timeouts: 1 }]) assert.match(loadText(load(100, bad)), /FLAG$/);
  });
});

describe('bench: the table', () => {
  test('one aligned table: a header, every figure and target, yes / NO / n/a, no trailing spaces', () => {
    const text = render(rows({ conformance: runs([13, 12, 14], [1118, 1118, 1118]), floor: runs([2, 2, 2]) }));
    const lines = text.split('\n');
    assert.equal(lines.length, 1 + rows({}).length);
    assert.match(lines[0] ?? '', /^measure +value +target +met$/);
    const valueColumn = lines[0]?.indexOf('value') ?? -1;
    for (const line of lines.slice(1)) {
      assert.equal(line.slice(valueColumn - 2, valueColumn), '  ', line);
      assert.notEqual(line[valueColumn], ' ', line);
    }
    assert.match(text, /^standard run \/ the floor \(medians, paired\) +6\.50× +≤ 1\.5× +NO$/m);
    assert.match(text, /^standard: requests +1118 +≤ 1,750 +yes$/m);
    assert.match(text, /^mock \/ Prism, 10 connections +not measured +≥ 5× +n\/a$/m);
    assert.ok(lines.every((l) => l === l.trimEnd()));
  });
});

describe('bench: options', () => {
  test('defaults: 5 runs, 5 s loads, 60 s of memory load, Prism and the depths included, no rate-limited run', () => {
    assert.deepEqual(parseOptions([]), {
      quick: false,
      skipPrism: false,
      skipDepths: false,
      rateLimited: false,
      split: false,
      help: false,
      plan: { runs: 5, load: 5, warmUp: 3, memory: 60 },
    });
  });

  test('--quick shortens every load and the runs; --skip-prism, --skip-depths and --help', () => {
    assert.deepEqual(parseOptions(['--quick']).plan, { runs: 3, load: 2, warmUp: 1, memory: 10 });
    assert.equal(parseOptions(['--skip-prism']).skipPrism, true);
    assert.equal(parseOptions(['--skip-depths']).skipDepths, true);
    assert.equal(parseOptions(['--help']).help, true);
  });

  test('--rate-limited adds each depth at 10 requests a second; --split profiles the floor and the standard run', () => {
    assert.equal(parseOptions(['--rate-limited']).rateLimited, true);
    assert.equal(parseOptions(['--split', '--quick']).split, true);
  });

  test('an unknown option or an argument is refused', () => {
    assert.throws(() => parseOptions(['--fast']), /Unknown option '--fast'/);
    assert.throws(() => parseOptions(['quick']), /Unexpected argument 'quick'/);
  });
});
