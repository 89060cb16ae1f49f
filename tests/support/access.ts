/**
 * The access matrix's cases on the spec's collection, for the unit tests: payments, its filter's named value, alone in
 * the run; undefined where the rule has nothing to judge with this configuration.
 */
import { accessCases } from '../../core/generate/access-cases.ts';
import { PAYMENTS } from '../../core/model/collection.ts';
import type { AccessRule } from '../../core/model/rules.ts';
import type { Target } from '../../core/model/target.ts';

export function paymentsCases(t: Target, rule: AccessRule) {
  const cases = accessCases(t, rule, PAYMENTS, { field: 'status', value: 'COMPLETED' });
  return typeof cases === 'string' ? undefined : cases;
}
