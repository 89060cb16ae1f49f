/**
 * The fault catalogue: its shape against the rule catalogue, and for every fault its own HTTP probe
 * (tests/mock/probes/) showing that the faulty mock deviates from the clean one exactly as the fault describes.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { RULES, type RuleId, sameFamily } from '../../core/model/rules.ts';
import { FAULTS, FaultError, type RunningMock, selectFaults, startMock } from '../../mock/index.ts';
import { HOOK_POINTS, HOOK_STAGES, STAGES } from '../../mock/switchboard.ts';
import { PROBE_GROUPS, PROBES, probeContext } from './probes/index.ts';

const RULE_IDS: readonly RuleId[] = RULES.map((r) => r.id);

/** Rules of the catalogue that no fault breaks yet, named here so that the gap is a decision, not an accident. */
const RULES_WITHOUT_FAULT: readonly RuleId[] = [];

const FAULT_NAMES = FAULTS.map((f) => f.name);
const sorted = (xs: Iterable<string>) => [...new Set(xs)].sort();

let clean: RunningMock;
before(async () => {
  clean = await startMock();
});
after(() => clean.stop());

describe('fault catalogue', () => {
  test('fault names are unique and kebab-case; each fault has a rule and a description', () => {
    assert.deepEqual(sorted(FAULT_NAMES), [...FAULT_NAMES].sort(), 'a fault name is used twice');
    for (const f of FAULTS) {
      assert.match(f.name, /^[a-z0-9]+(-[a-z0-9]+)*$/);
      assert.ok(f.description.length >= 15, f.name);
    }
  });
  test('every fault has exactly one probe, and every probe names a fault', () => {
    const keys = PROBE_GROUPS.flatMap((group) => Object.keys(group));
    assert.deepEqual(sorted(keys), [...keys].sort(), 'a fault has a probe in two files');
    assert.deepEqual(sorted(Object.keys(PROBES)), sorted(FAULT_NAMES));
  });
  test('the rules the faults break are rules of the catalogue, and every rule has one (in its family), but for the named exceptions', () => {
    assert.deepEqual(
      FAULTS.filter((f) => !RULE_IDS.includes(f.rule)).map((f) => f.name),
      [],
    );
    // A general rule (FLT-FIELD) is broken by its instance's faults switched on for another collection (`NAME@refunds`).
    assert.deepEqual(
      RULE_IDS.filter((id) => !RULES_WITHOUT_FAULT.includes(id) && !FAULTS.some((f) => sameFamily(f.rule, id))),
      [],
    );
  });
  test('hook points are listed in request order: their stages never go back', () => {
    const ranks = HOOK_POINTS.map((p) => STAGES.indexOf(HOOK_STAGES[p].stage));
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
