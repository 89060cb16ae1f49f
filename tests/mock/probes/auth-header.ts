/** Probes of the Authorization header parser's faults (mock/faults/auth-header.ts). */
import assert from 'node:assert/strict';
import { call, KEYS, list, MERCHANTS } from '../support.ts';
import type { Probe, ProbeContext } from './probe.ts';

const SB = MERCHANTS.sandbox;
const K = KEYS.test;

/** Each header gets 401 from the clean mock and the test key's 200 from the faulty one. */
async function accepted(p: ProbeContext, headers: string[]) {
  for (const header of headers) {
    const { c, f } = await p.both(list(SB), null, header);
    assert.deepEqual([c.status, f.status, f.body.total], [401, 200, 237], header.replace(K, '<key>'));
  }
}

/** Each header still gets 401 from the faulty mock: the fault lets in only what it describes. */
async function refused(p: ProbeContext, headers: string[]) {
  for (const header of headers) {
    const f = await call(p.faulty.url, list(SB), { auth: header });
    assert.equal(f.status, 401, header.replace(K, '<key>'));
  }
}

export const AUTH_HEADER_PROBES: Record<string, Probe> = {
  'auth-first-word': async (p) => {
    await accepted(p, [`Bearer ${K} x`, `bearer ${K} ${K}`]);
    await refused(p, [`Bearer not-a-key ${K}`, `Bearer "${K}"`, `Bearer ${K};realm=x`, `Bearer ${KEYS.revoked} x`]);
  },
  'auth-last-credential': async (p) => {
    await accepted(p, [`Bearer not-a-key, Bearer ${K}`, `Basic Zm9vOmJhcg==, bearer ${K}`]);
    await refused(p, [`Bearer ${K}, Bearer not-a-key`, `Bearer ${K} x`, `Bearer ${K},`]);
  },
  'auth-quotes-stripped': async (p) => {
    await accepted(p, [`Bearer "${K}"`]);
    await refused(p, [`Bearer '${K}'`, `Bearer "${K}`, `Bearer ${K} x`, `Bearer "${KEYS.revoked}"`]);
  },
  'auth-params-cut': async (p) => {
    await accepted(p, [
      `Bearer ${K};realm=x`,
      `Bearer ${K}; realm=x`,
      `Bearer ${K},`,
      `Bearer ${K}, Basic Zm9vOmJhcg==`,
    ]);
    await refused(p, [`Bearer ${K} x`, `Bearer ${K}x`, `Bearer not-a-key, Bearer ${K}`, `Bearer ${KEYS.revoked};x`]);
  },
};
