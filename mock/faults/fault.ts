/** The shape of a fault: a named single deviation, the rule (rules.md) it breaks, and its hooks. */
import type { RuleId } from '../../fixtures/rules.ts';
import type { FaultHooks } from '../hooks.ts';

export interface Fault {
  name: string;
  rule: RuleId;
  description: string;
  hooks: FaultHooks;
}

/** Thrown by a fault that makes the server crash on odd input; the server's last-resort catch answers 500. */
export class FaultCrash extends RangeError {
  override name = 'RangeError';
}

export const fault = (name: string, rule: RuleId, description: string, hooks: FaultHooks): Fault => ({
  name,
  rule,
  description,
  hooks,
});
