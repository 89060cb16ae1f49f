/**
 * scripts/bench/split-parts.ts, the pure part of `npm run bench -- --split`: a sampled stack's part (the first part
 * whose frame it holds; loading is the loader's own work, not what a module runs when evaluated), and a run's
 * profiles read as processes on the runner's clock with their busy CPU by part.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type Profile, partOf, splitOf, splitText } from '../../scripts/bench/split-parts.ts';

const frame = (url: string, functionName = 'f') => ({ functionName, url });
const SPEC = 'file:///x/specs/2-envelope.spec.ts';

describe('bench --split: the part of a sampled stack', () => {
  test("the loader's own work is loading; a module evaluated under the loader is what its code is", () => {
    assert.equal(partOf([frame(''), frame('node:internal/modules/esm/utils'), frame(SPEC)]), 'module loading');
    assert.equal(
      partOf([frame('file:///x/core/client/http.ts'), frame('node:internal/modules/cjs/loader')]),
      'HTTP client and sockets',
    );
    assert.equal(partOf([frame('file:///x/node_modules/playwright/lib/transform/babelBundle.js')]), 'module loading');
  });

  test('the first part whose frame the stack holds: the mock before the sockets, the watcher before the client', () => {
    assert.equal(partOf([frame('node:net'), frame('file:///x/mock/server.ts')]), 'the mock');
    assert.equal(partOf([frame('file:///x/core/client/http.ts'), frame('file:///x/core/run/watch.ts')]), 'the watcher');
    assert.equal(partOf([frame(SPEC)]), 'checks');
    assert.equal(partOf([frame('', '(garbage collector)')]), 'garbage collection');
    assert.equal(partOf([frame('node:fs')]), 'other');
  });
});

/** A profile of `pid` with one sample per [ms, url] after `startMs`, the idle ones by url 'idle'. */
function profile(pid: number, thread: number, startMs: number, samples: Array<[number, string]>): Profile {
  const nodes = [
    { id: 1, callFrame: frame('', '(root)'), children: samples.map((_, i) => i + 2) },
    ...samples.map(([, url], i) => ({ id: i + 2, callFrame: url === 'idle' ? frame('', '(idle)') : frame(url) })),
  ];
  const total = samples.reduce((n, [ms]) => n + ms, 0);
  return {
    pid,
    thread,
    startTime: startMs * 1000,
    endTime: (startMs + total) * 1000,
    nodes,
    samples: samples.map((_, i) => i + 2),
    timeDeltas: samples.map(([ms]) => ms * 1000),
  };
}

describe('bench --split: a run read from its profiles', () => {
  const run = splitOf(
    [
      profile(7, 0, 1000, [
        [300, 'file:///x/mock/server.ts'],
        [500, 'idle'],
        [200, SPEC],
      ]),
      profile(9, 0, 1400, [
        [100, 'file:///x/core/run/watch.ts'],
        [50, SPEC],
      ]),
      profile(9, 1, 1400, [[40, 'node:internal/modules/esm/worker']]),
    ],
    2.5,
  );

  test('the runner is the first main thread; times on its clock; busy excludes idle; a loader thread is loading', () => {
    assert.equal(run.wallSeconds, 2.5);
    const [runner, worker] = run.processes;
    assert.deepEqual([runner?.role, runner?.start, runner?.end, runner?.busyMs], ['runner', 0, 1, 500]);
    assert.deepEqual([worker?.role, worker?.start, worker?.busyMs], ['worker', 0.4, 190]);
    assert.deepEqual(worker?.parts, { 'the watcher': 100, checks: 50, 'module loading': 40 });
  });

  test("the first check is a worker's (the runner loads every spec to list them), on the runner's clock", () => {
    assert.equal(run.firstCheck, 0.55);
  });

  test('as text: the run, each process, the CPU by part', () => {
    const lines = splitText('the standard run', run);
    assert.equal(lines[0], 'the standard run: 2.50 s wall, 0.69 s of CPU, first check at 0.55 s');
    assert.match(lines[1] as string, /^ {2}runner 0\.00–1\.00 s, busy 0\.50 s: the mock 0\.30 s, checks 0\.20 s$/);
    assert.match(lines.at(-1) as string, /CPU by part: the mock 0\.30 s, checks 0\.25 s, the watcher 0\.10 s/);
  });
});
