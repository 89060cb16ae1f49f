/**
 * fidelity --calibrate with a declared collection: the refunds of the reference A (a collections file) calibrate the
 * mock's example collection too (apart from tests/unit/calibrate.test.ts so that the two run side by side).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { casesOf } from '../../fidelity/measure.ts';
import { calibrationBench } from '../support/calibration.ts';

const { dir, reference, calibrate } = calibrationBench('calibrate-collection-test-');

describe('fidelity --calibrate: a declared collection', () => {
  test("the refunds of A (a collections file) calibrate the mock's example collection too", async () => {
    const a = await reference('refunds', ['unknown-status=reject', 'ties=reverse', 'over-limit=reject']);
    try {
      const reports = join(dir, 'refunds');
      const { code, out, record } = await calibrate(a.file, reports, '--collections', 'examples/collections.json');
      assert.equal(code, 0, out);
      const refunds = casesOf(record.measured).filter((c) => c.collection === 'refunds');
      assert.ok(refunds.length > 20, `${refunds.length} refunds cases`);
      const missed = refunds.filter((c) => !record.reference[c.id] && !c.needs.includes('API_OLD_KEY'));
      assert.deepEqual(
        missed.map((c) => c.label),
        [],
        'every refunds case compared (but those of a rotated key)',
      );
      assert.match(record.alike.after, /^fidelity: (\d+)\/\1 cases answered alike/);
      assert.deepEqual(record.variants, { 'unknown-status': 'reject', 'over-limit': 'reject', ties: 'reverse' });
    } finally {
      await a.mock.stop();
    }
  });
});
