/**
 * Every fault's probe, keyed by the fault's name, in files grouped as the faults are in mock/faults/.
 * tests/mock/faults.test.ts checks that the probes and the faults name the same set and runs each probe.
 */

import { AUTH_PROBES } from './auth.ts';
import { AUTH_HEADER_PROBES } from './auth-header.ts';
import { AUTHORIZE_PROBES } from './authorize.ts';
import { CAP_PROBES } from './cap.ts';
import { DOOR_PROBES } from './doors.ts';
import { ENVELOPE_PROBES } from './envelope.ts';
import { FILTER_SORT_PROBES } from './filter-sort.ts';
import { INPUT_PROBES } from './input.ts';
import { KEY_PROBES } from './keys.ts';
import { LIVE_PROBES } from './live.ts';
import { METHOD_PROBES } from './methods.ts';
import { PAGE_PROBES } from './pages.ts';
import { PATH_PROBES } from './paths.ts';
import type { Probe } from './probe.ts';
import { REFUSAL_PROBES } from './refusals.ts';
import { SHARED_STATE_PROBES } from './shared-state.ts';
import { SPELLING_PROBES } from './spellings.ts';

export { type Probe, probeContext } from './probe.ts';

/** The probe files' maps, as written: a fault name in two of them shows here and is lost in PROBES. */
export const PROBE_GROUPS: readonly Readonly<Record<string, Probe>>[] = [
  ENVELOPE_PROBES,
  PAGE_PROBES,
  CAP_PROBES,
  FILTER_SORT_PROBES,
  LIVE_PROBES,
  INPUT_PROBES,
  AUTH_PROBES,
  AUTH_HEADER_PROBES,
  AUTHORIZE_PROBES,
  KEY_PROBES,
  PATH_PROBES,
  REFUSAL_PROBES,
  METHOD_PROBES,
  SPELLING_PROBES,
  DOOR_PROBES,
  SHARED_STATE_PROBES,
];

export const PROBES: Readonly<Record<string, Probe>> = Object.assign({}, ...PROBE_GROUPS);
