/**
 * scripts/bench.ts, its pure part: medians and spreads, the targets and their verdicts (met at the threshold, not
 * met past it, n/a when not measured), the console table, and the options.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  type Figures,
  type Load,
  loadText,
  median,
  parseOptions,
  RECORD,
  render,
  rows,
  runsOf,
} from '../../scripts/bench/main.ts';

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
    conformance: runs([4, 4, 4], [1750, 1750, 1750], { cpuSeconds: 10, observeMs: 499, keyScanMs: 200 }),
    startup: runs([2, 2, 2]),
    mock10: load(10_000),
    prism: load(2000),
    memory: { startMB: 80, endMB: 95.9, seconds: 73 },
    pacing: { limit: 8, accepted: 901, spanSeconds: 125, wallSeconds: 130, refused: 0 },
  };

  test('each target is met at its threshold', () => {
    assert.deepEqual(verdicts(full), {
      'full run / playwright test --list': true,
      [`full run vs ${RECORD.seconds} s`]: true,
      'requests of the default run': true,
      "watching every answer: share of the full runs' CPU": true,
      'rate-limited sandbox': true,
      'mock / Prism, 10 connections': true,
      'mock memory': true,
    });
    const atRecord = verdicts({ ...full, conformance: runs([RECORD.seconds * 1.2]) });
    assert.equal(atRecord[`full run vs ${RECORD.seconds} s`], true);
  });

  test('and not met just past it', () => {
    const past: Figures = {
      conformance: runs([4.01, 4.01], [1751, 1751], { cpuSeconds: 10, observeMs: 500, keyScanMs: 200 }),
      startup: runs([2, 2]),
      mock10: load(9999),
      prism: load(2000),
      memory: { startMB: 80, endMB: 96, seconds: 73 },
      pacing: { limit: 8, accepted: 900, spanSeconds: 125, wallSeconds: 130, refused: 3 },
    };
    assert.deepEqual(Object.values(verdicts(past)), [false, true, false, false, false, false, false]);
    const slow = verdicts({ ...full, conformance: runs([RECORD.seconds * 1.21]) });
    assert.equal(slow[`full run vs ${RECORD.seconds} s`], false);
  });

  test('a figure not measured gives n/a, never met or not met; Prism skipped says why', () => {
    const none = rows({ prism: 'n/a (--skip-prism)' }).filter((r) => r.target);
    assert.ok(none.every((r) => r.met === undefined));
    assert.deepEqual(
      none.map((r) => r.value),
      [
        'not measured',
        'not measured',
        'not measured',
        'not measured (needs /proc: Linux)',
        'not measured',
        'n/a (--skip-prism)',
        'not measured',
      ],
    );
  });

  test('values as shown: ratios, the change against the record, memory from start to end', () => {
    const shown = Object.fromEntries(rows(full).map((r) => [r.measure.split(' (')[0], r.value]));
    assert.equal(shown['full run / playwright test --list'], '2.00×');
    assert.equal(shown[`full run vs ${RECORD.seconds} s`], '-22.6 %');
    assert.equal(shown['mock / Prism, 10 connections'], '5.0×');
    assert.equal(shown['mock memory'], '80.0 → 95.9 MB over 73 s (+19.9 %)');
    assert.equal(
      shown["watching every answer: share of the full runs' CPU"],
      '5.0 % (record provenance alone 3.0 %, the rest the key scan)',
    );
    const heap = rows({ ...full, memory: { startMB: 80, endMB: 96, seconds: 73, heapStartMB: 9.4, heapEndMB: 9.61 } });
    assert.equal(heap.at(-1)?.value, '80.0 → 96.0 MB over 73 s (+20.0 %); heap after GC 9.4 → 9.6 MB');
    assert.equal(shown['full conformance run, wall'], 'median 4.00 s (4.00–4.00), exit 0 0 0');
    assert.equal(
      shown['rate-limited sandbox'],
      'used 90.0 % of the allowed rate (901 requests in 125.0 s at the target, 0 refused with 429; the whole run 1.15 × requests / limit)',
    );
  });

  test('a load with non-2xx answers, errors or timeouts is flagged', () => {
    assert.doesNotMatch(loadText(load(100)), /FLAG/);
    for (const bad of [{ non2xx: 1 }, { errors: 2 }, { timeouts: 1 }]) assert.match(loadText(load(100, bad)), /FLAG$/);
  });
});

describe('bench: the table', () => {
  test('one aligned table: a header, every figure and target, yes / NO / n/a, no trailing spaces', () => {
    const text = render(rows({ conformance: runs([13, 12, 14], [1118, 1118, 1118]), startup: runs([2, 2, 2]) }));
    const lines = text.split('\n');
    assert.equal(lines.length, 13);
    assert.match(lines[0] ?? '', /^measure +value +target +met$/);
    const valueColumn = lines[0]?.indexOf('value') ?? -1;
    for (const line of lines.slice(1)) {
      assert.equal(line.slice(valueColumn - 2, valueColumn), '  ', line);
      assert.notEqual(line[valueColumn], ' ', line);
    }
    assert.match(text, /^full run \/ playwright test --list \(medians, paired\) +6\.50× +≤ 2× +NO$/m);
    assert.match(text, /^requests of the default run +1118 +≤ 1,750 +yes$/m);
    assert.match(text, /^mock \/ Prism, 10 connections +not measured +≥ 5× +n\/a$/m);
    assert.ok(lines.every((l) => l === l.trimEnd()));
  });
});

describe('bench: options', () => {
  test('defaults: 5 runs, 5 s loads, 60 s of memory load, Prism included', () => {
    assert.deepEqual(parseOptions([]), {
      quick: false,
      skipPrism: false,
      help: false,
      plan: { runs: 5, load: 5, warmUp: 3, memory: 60 },
    });
  });

  test('--quick shortens every load and the runs; --skip-prism and --help', () => {
    assert.deepEqual(parseOptions(['--quick']).plan, { runs: 3, load: 2, warmUp: 1, memory: 10 });
    assert.equal(parseOptions(['--skip-prism']).skipPrism, true);
    assert.equal(parseOptions(['--help']).help, true);
  });

  test('an unknown option or an argument is refused', () => {
    assert.throws(() => parseOptions(['--fast']), /Unknown option '--fast'/);
    assert.throws(() => parseOptions(['quick']), /Unexpected argument 'quick'/);
  });
});
