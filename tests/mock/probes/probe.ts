/**
 * A fault's probe: the same request to a clean and a faulty mock, asserting that the faulty answer deviates exactly
 * as the fault describes and that a neighbouring request stays clean. tests/mock/faults.test.ts runs every probe;
 * the mock itself knows nothing of them.
 */
import type { MockEnv } from '../../../mock/index.ts';
import { call, KEYS, type Res } from '../support.ts';

/** A running mock as a probe sees it. */
export interface ProbeTarget {
  url: string;
  env: MockEnv;
}

export interface ProbeContext {
  clean: ProbeTarget;
  faulty: ProbeTarget;
  /** The same request to the clean (c) and the faulty (f) mock; key null sends none, auth is a raw header. */
  both(path: string, key?: string | null, auth?: string): Promise<{ c: Res; f: Res }>;
}

/** Shows that the faulty mock deviates from the clean one as the fault describes, and only there. */
export type Probe = (p: ProbeContext) => Promise<void>;

export function probeContext(clean: ProbeTarget, faulty: ProbeTarget): ProbeContext {
  return {
    clean,
    faulty,
    async both(path, key = KEYS.test, auth) {
      const [c, f] = await Promise.all([call(clean.url, path, { key, auth }), call(faulty.url, path, { key, auth })]);
      return { c, f };
    },
  };
}
