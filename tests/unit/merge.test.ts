/** `payment-api-conformance merge`: the results of a run's shards judged as one run. */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { main, missingShards } from '../../commands/merge.ts';
import { mergeResults } from '../../commands/results.ts';
import type { CheckRecord } from '../../core/model/verdict.ts';
import { type RunInfo, summarize } from '../../reporters/summary.ts';
import { checkRecord, failed, runInfo } from '../support/records.ts';

const info = runInfo;
const shard = (current: number, total: number, checks: CheckRecord[], over: Partial<RunInfo> = {}) =>
  summarize(checks, info({ shard: { current, total }, ...over }));

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('merge', () => {
  test('the checks of every shard are judged together: a rule split across shards is whole again', () => {
    const one = shard(1, 2, [checkRecord('PAG-SIZE a', 'pass'), checkRecord('PAG-TOTAL a', 'pass')]);
    const two = shard(2, 2, [failed('PAG-SIZE b', '6 records'), checkRecord('LIM-CAP a', 'pass')]);
    assert.equal(one.outcome.scope, 'for the 2 selected rule(s)');
    const merged = mergeResults([one, two]);
    assert.equal(merged.shard, null);
    assert.deepEqual(
      merged.rules.filter((r) => r.checks > 0).map((r) => [r.id, r.verdict, r.checks]),
      [
        ['PAG-SIZE', 'fail', 2],
        ['PAG-TOTAL', 'pass', 1],
        ['LIM-CAP', 'pass', 1],
      ],
    );
    assert.equal(merged.outcome.exitCode, 1);
    assert.equal(merged.requests, 20);
    assert.equal(merged.seed, 7);
  });

  test('a stopped shard or one whose target went away makes the whole inconclusive; different seeds give none', () => {
    const a = shard(1, 2, [checkRecord('PAG-SIZE a', 'pass')], { status: 'interrupted' });
    const b = shard(2, 2, [checkRecord('PAG-TOTAL a', 'pass')], { seed: 8, transportFailures: 2 });
    const merged = mergeResults([a, b]);
    assert.equal(merged.outcome.exitCode, 3);
    assert.equal(merged.status, 'interrupted');
    assert.equal(merged.seed, null);
    assert.equal(merged.transportFailures, 2);
  });

  test('a check given twice counts once', () => {
    const a = shard(1, 1, [checkRecord('PAG-SIZE a', 'pass')]);
    assert.equal(mergeResults([a, a]).rules.find((r) => r.id === 'PAG-SIZE')?.checks, 1);
  });

  test('every shard must be there, and of one run', () => {
    const [a, c] = [shard(1, 3, []), shard(3, 3, [])];
    assert.deepEqual(missingShards([a, c]), ['shard 2 of 3']);
    assert.deepEqual(missingShards([a, shard(2, 2, [])]), ['shards of different runs (of 3, of 2)']);
    assert.deepEqual(missingShards([summarize([], info())]), []);
  });

  test('the command: folders of shard results in, one conformance.json out, the merged exit code', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'merge-'));
    dirs.push(dir);
    const write = (name: string, s: unknown) => {
      mkdirSync(join(dir, 'in', name), { recursive: true });
      writeFileSync(join(dir, 'in', name, 'conformance.json'), JSON.stringify(s));
    };
    write('shard-1-of-2', shard(1, 2, [checkRecord('PAG-SIZE a', 'pass')]));
    const log = console.log;
    const err = console.error;
    const printed: string[] = [];
    console.log = console.error = (...a: unknown[]) => void printed.push(a.join(' '));
    try {
      assert.equal(await main([join(dir, 'in'), '--reports', join(dir, 'out')]), 2, 'shard 2 is missing');
      assert.match(printed.join('\n'), /shard 2 of 2 is missing; nothing was merged/);
      write('shard-2-of-2', shard(2, 2, [failed('PAG-TOTAL a', 'total 7', { requestLines: [3, 5] })]));
      assert.equal(await main([join(dir, 'in'), '--reports', join(dir, 'out')]), 1);
      const out = JSON.parse(readFileSync(join(dir, 'out', 'conformance.json'), 'utf8'));
      assert.equal(out.checks.length, 2);
      assert.equal(out.outcome.result, 'nonconformant');
      // A merged finding names the request log its lines are in: its shard's, not one the merged folder lacks.
      const total = out.checks.find((c: { rule: string }) => c.rule === 'PAG-TOTAL');
      assert.equal(total.requestLog, '../in/shard-2-of-2/requests.ndjson');
      assert.match(
        readFileSync(join(dir, 'out', 'conformance.md'), 'utf8'),
        /new failure: PAG-TOTAL a — its requests: \.\.\/in\/shard-2-of-2\/requests\.ndjson lines 3–5/,
      );
      assert.equal(await main([]), 2, 'nothing named');
      assert.equal(await main([join(dir, 'nope')]), 2, 'a folder that does not exist');
    } finally {
      console.log = log;
      console.error = err;
    }
  });
});
