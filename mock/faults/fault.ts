/** The shape of a fault: a named single deviation, the rule (rules.md) it breaks, and its hooks. */
import type { FaultHooks } from '../hooks.ts';

export type RuleId =
  | 'ENV-SCHEMA'
  | 'PAG-ECHO'
  | 'PAG-DEFAULT'
  | 'PAG-SIZE'
  | 'PAG-TOTAL'
  | 'PAG-PARTITION'
  | 'PAG-EMPTY'
  | 'LIM-CAP'
  | 'FLT-STATUS'
  | 'FLT-BEFORE-PAGE'
  | 'SRT-AMOUNT'
  | 'SRT-FILTER'
  | 'INP-ROBUST'
  | 'AUTH-MISSING'
  | 'AUTH-INVALID'
  | 'AUTH-REVOKED'
  | 'AUTH-FIRST'
  | 'AUTH-FORBIDDEN'
  | 'AUTH-STATUS'
  | 'KEY-SECRET'
  | 'MODE-TEST-SANDBOX'
  | 'MODE-LIVE-SANDBOX'
  | 'MODE-TEST-LIVE'
  | 'MODE-LIVE-LIVE'
  | 'MODE-ISOLATION'
  | 'MER-ISOLATION'
  | 'CFG-KEYS'
  | 'ADV-SCHEME'
  | 'ADV-UNKNOWN-MERCHANT'
  | 'ADV-UNKNOWN-PATH';

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
