/** Faults of the listing envelope (§2), its echo (§4.2 rule 3) and the default limit (§4.2, §8). */
import assert from 'node:assert/strict';
import { TARGET } from '../identity.ts';
import { type Fault, fault } from './fault.ts';
import { ids, list, MERCHANTS, page } from './probe.ts';

const SB = MERCHANTS.sandbox;
const pastEnd = (offset: number, total: number) => offset >= total;

export const ENVELOPE_FAULTS: readonly Fault[] = [
  fault(
    'envelope-success-string',
    'ENV-SCHEMA',
    'listing envelope carries success as the string "true"',
    {
      body: (b, f) => {
        if (f.route === 'list') b.success = 'true';
      },
    },
    async (p) => {
      const { c, f } = await p.both(list(SB));
      assert.deepEqual([c.body.success, f.body.success], [true, 'true']);
    },
  ),
  fault(
    'envelope-missing-message',
    'ENV-SCHEMA',
    'listing envelope has no message field',
    {
      body: (b, f) => {
        if (f.route === 'list') b.message = undefined;
      },
    },
    async (p) => {
      const { c, f } = await p.both(list(SB));
      assert.deepEqual(['message' in c.body, 'message' in f.body], [true, false]);
    },
  ),
  fault(
    'envelope-total-string',
    'ENV-SCHEMA',
    'listing envelope carries total as a string ("237")',
    {
      body: (b, f) => {
        if (f.route === 'list') b.total = String(b.total);
      },
    },
    async (p) => {
      const { c, f } = await p.both(list(SB));
      assert.deepEqual([c.body.total, f.body.total], [237, '237']);
    },
  ),
  fault(
    'echo-offset-zero',
    'PAG-ECHO',
    'offset always echoed as 0; the data is still the right slice',
    {
      echo: (e) => {
        e.offset = 0;
      },
    },
    async (p) => {
      const { c, f } = await p.both(list(SB, 'offset=20&limit=5'));
      assert.deepEqual([c.body.offset, f.body.offset], [20, 0]);
      assert.deepEqual(ids(f.body.data), ids(c.body.data));
    },
  ),
  fault(
    'echo-limit-omitted-zero',
    'PAG-ECHO',
    'limit omitted: echoes limit 0 while serving the default',
    {
      echo: (e, f) => {
        if (!f.query.limitGiven) e.limit = 0;
      },
    },
    async (p) => {
      const { c, f } = await p.both(list(SB));
      assert.deepEqual([c.body.limit, f.body.limit, f.body.data.length], [10, 0, 10]);
      assert.equal((await page(p.faulty.url, SB, 'limit=5')).limit, 5);
    },
  ),
  fault(
    'echo-offset-clamped',
    'PAG-ECHO',
    'offset >= total is echoed as total instead of as sent',
    {
      echo: (e, f) => {
        if (pastEnd(f.query.offset, f.total)) e.offset = f.total;
      },
    },
    async (p) => {
      const { c, f } = await p.both(list(SB, 'offset=500'));
      assert.deepEqual([c.body.offset, f.body.offset], [500, 237]);
    },
  ),
  fault(
    'default-limit-25',
    'PAG-DEFAULT',
    'limit omitted: 25 records, echoed as 25 (env still announces 10)',
    {
      settings: (s) => {
        s.defaultLimit = 25;
      },
    },
    async (p) => {
      const { c, f } = await p.both(list(SB));
      assert.deepEqual([c.body.data.length, f.body.data.length, f.body.limit], [10, 25, 25]);
      assert.equal(p.faulty.env.API_DEFAULT_LIMIT, String(TARGET.defaultLimit), 'the announced default stays');
    },
  ),
];
