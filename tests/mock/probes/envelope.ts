/** Probes of the envelope faults (mock/faults/envelope.ts): the envelope (§2), its echo (§4.2 rule 3) and the default limit. */
import assert from 'node:assert/strict';
import { IDENTITY } from '../../../mock/index.ts';
import { ids, list, MERCHANTS, page } from '../support.ts';
import type { Probe } from './probe.ts';

const SB = MERCHANTS.sandbox;

export const ENVELOPE_PROBES: Record<string, Probe> = {
  'envelope-success-string': async (p) => {
    const { c, f } = await p.both(list(SB));
    assert.deepEqual([c.body.success, f.body.success], [true, 'true']);
  },
  'envelope-missing-message': async (p) => {
    const { c, f } = await p.both(list(SB));
    assert.deepEqual(['message' in c.body, 'message' in f.body], [true, false]);
  },
  'envelope-total-string': async (p) => {
    const { c, f } = await p.both(list(SB));
    assert.deepEqual([c.body.total, f.body.total], [237, '237']);
  },
  'echo-offset-zero': async (p) => {
    const { c, f } = await p.both(list(SB, 'offset=20&limit=5'));
    assert.deepEqual([c.body.offset, f.body.offset], [20, 0]);
    assert.deepEqual(ids(f.body.data), ids(c.body.data));
  },
  'echo-limit-omitted-zero': async (p) => {
    const { c, f } = await p.both(list(SB));
    assert.deepEqual([c.body.limit, f.body.limit, f.body.data.length], [10, 0, 10]);
    assert.equal((await page(p.faulty.url, SB, 'limit=5')).limit, 5);
  },
  'echo-offset-clamped': async (p) => {
    const { c, f } = await p.both(list(SB, 'offset=500'));
    assert.deepEqual([c.body.offset, f.body.offset], [500, 237]);
  },
  'default-limit-25': async (p) => {
    const { c, f } = await p.both(list(SB));
    assert.deepEqual([c.body.data.length, f.body.data.length, f.body.limit], [10, 25, 25]);
    assert.equal(p.faulty.env.API_DEFAULT_LIMIT, String(IDENTITY.defaultLimit), 'the announced default stays');
  },
};
