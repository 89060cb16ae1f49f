/**
 * The fault catalogue: its shape against the rule catalogue, and for every fault its own HTTP probe
 * (tests/mock/probes/) showing that the faulty mock deviates from the clean one exactly as the fault describes.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { RULES } from '../../core/model/rules.ts';
import { FAULT_NAMES, FAULTS, FaultError, selectFaults } from '../../mock/faults/index.ts';
import { HOOK_POINTS, HOOK_STAGES, STAGES } from '../../mock/hooks.ts';
import { type RunningMock, startMock } from '../../mock/index.ts';
import { PROBES, probeContext } from './probes/index.ts';

const RULE_IDS: string[] = RULES.map((r) => r.id);

let clean: RunningMock;
before(async () => {
  clean = await startMock();
});
after(() => clean.stop());

describe('fault catalogue', () => {
  test('at least 40 faults, unique kebab-case names, each with a rule and a description', () => {
    assert.ok(FAULTS.length >= 40, `${FAULTS.length} faults`);
    assert.equal(new Set(FAULT_NAMES).size, FAULTS.length);
    for (const f of FAULTS) {
      assert.match(f.name, /^[a-z0-9]+(-[a-z0-9]+)*$/);
      assert.ok(f.description.length >= 15, f.name);
    }
  });
  test('every fault names a rule of the catalogue', () => {
    assert.ok(RULE_IDS.length >= 28, 'rules.md parsed');
    for (const f of FAULTS) assert.ok(RULE_IDS.includes(f.rule), `${f.name}: ${f.rule} is not in the catalogue`);
  });
  test('every rule of the catalogue is broken by at least one fault', () => {
    const covered = new Set<string>(FAULTS.map((f) => f.rule));
    assert.deepEqual(
      RULE_IDS.filter((id) => !covered.has(id)),
      [],
    );
  });
  test('hook points are listed in request order: their stages never go back', () => {
    const ranks = HOOK_POINTS.map((p) => STAGES.indexOf(HOOK_STAGES[p]));
    assert.deepEqual(
      ranks,
      [...ranks].sort((a, b) => a - b),
    );
  });
  test('an unknown fault is refused with the list of names', async () => {
    assert.throws(
      () => selectFaults(['nope']),
      (err: Error) => {
        assert.ok(err instanceof FaultError);
        assert.match(err.message, /unknown fault "nope"; faults are: envelope-success-string, /);
        return true;
      },
    );
    await assert.rejects(startMock({ faults: ['uncapped', 'nope'] }), FaultError);
  });
});

describe('each fault deviates as described (faulty vs clean mock)', () => {
  for (const f of FAULTS) {
    test(`${f.rule} ${f.name}`, async () => {
      const unexpected: string[] = [];
      const faulty = await startMock({ faults: [f.name], log: (line) => unexpected.push(line) });
      try {
        const probe = PROBES[f.name];
        assert.ok(probe, `${f.name} has no probe`);
        await probe(probeContext(clean, faulty));
      } finally {
        await faulty.stop();
      }
      // A fault deviates on purpose; it never makes the mock itself fail unexpectedly.
      assert.deepEqual(unexpected, []);
    });
  }
});
