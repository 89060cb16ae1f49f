/** Faults of routing (§5.2): paths answered without authentication, or with what a gateway says. */
import assert from 'node:assert/strict';
import { MESSAGES, reject } from '../errors.ts';
import { type Fault, fault } from './fault.ts';
import { call, list, UNKNOWN_MERCHANT } from './probe.ts';

export const PATH_FAULTS: readonly Fault[] = [
  fault(
    'unknown-path-403',
    'ADV-UNKNOWN-PATH',
    'a path no endpoint serves gets 403 without a key (a gateway that says "missing authentication token")',
    { beforeAuth: (r) => (r.kind === 'unknown' ? reject(403, MESSAGES.missingToken) : undefined) },
    async (p) => {
      const { c, f } = await p.both('/merchant/statuses', null);
      assert.deepEqual([c.status, f.status], [401, 403]);
      const spec = await call(p.faulty.url, list(UNKNOWN_MERCHANT), { key: null });
      assert.equal(spec.status, 401, 'the spec endpoints keep 401');
    },
  ),
];
