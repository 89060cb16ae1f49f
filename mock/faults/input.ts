/** Faults of odd query input (§7): a 5xx, or a 200 that breaks the envelope, for values a client may send. */
import assert from 'node:assert/strict';
import { MESSAGES, reject } from '../errors.ts';
import { type Fault, FaultCrash, fault } from './fault.ts';
import { call, ids, list, MERCHANTS, page, type Res } from './probe.ts';

const SB = MERCHANTS.sandbox;
/** The values a handler stores or looks up as text (a status column, a sort key), unlike the numbers. */
const isTextParam = (name: string) => name === 'filter[status]' || name === 'sort';
/** Values up to this long fit the column; longer ones crash the query until the length guard refuses them. */
const COLUMN_WIDTH = 255;
const GUARD_LENGTH = 4096;
const hasControlCharacter = (value: string) => [...value].some((ch) => ch.charCodeAt(0) < 0x20);
const crashed = (res: Res) => res.status === 500 && /^RangeError: .*\n\s+at /.test(res.text);

/** The same request to both mocks: the clean one answers below 500, the faulty one crashes. */
async function assertCrash(p: Parameters<Fault['probe']>[0], path: string): Promise<void> {
  const { c, f } = await p.both(path);
  assert.ok(c.status < 500, `${path}: clean ${c.status}`);
  assert.ok(crashed(f), `${path}: faulty ${f.status} ${f.text.slice(0, 80)}`);
}

/** A request both mocks answer alike. */
async function assertSame(p: Parameters<Fault['probe']>[0], path: string): Promise<void> {
  const { c, f } = await p.both(path);
  assert.deepEqual([f.status, f.text], [c.status, c.text], path);
}

export const INPUT_FAULTS: readonly Fault[] = [
  fault(
    'odd-input-500',
    'INP-ROBUST',
    'non-numeric or exponent limit/offset crashes the handler: 500 with a stack trace',
    {
      oddParam: (name, raw) => {
        if (!/^-?\d+$/.test(raw)) throw new FaultCrash(`Cannot convert "${raw}" to an integer for ${name}`);
        return undefined;
      },
    },
    async (p) => {
      for (const value of ['abc', '1e3', '1.5']) {
        const { c, f } = await p.both(list(SB, `limit=${value}`));
        assert.deepEqual([c.status, f.status], [400, 500]);
        assert.match(f.text, /^RangeError: .*\n\s+at /);
      }
      assert.equal((await call(p.faulty.url, list(SB, 'limit=-1'))).status, 400, 'numeric odd values stay 400');
      assert.equal((await call(p.faulty.url, list(SB))).status, 200, 'the server survives');
    },
  ),
  fault(
    'odd-input-negative-echo',
    'INP-ROBUST',
    'negative offset: 200 echoing it, with records from the end of the list',
    {
      oddParam: (name, raw) => (name === 'offset' && /^-\d+$/.test(raw) ? Number(raw) : undefined),
      slice: (s, f) => {
        if (f.query.offset < 0) s.start = Math.max(0, f.total + f.query.offset);
        if (f.query.offset < 0) s.end = Math.min(f.total, s.start + f.query.limit);
      },
    },
    async (p) => {
      const { c, f } = await p.both(list(SB, 'offset=-5'));
      assert.deepEqual([c.status, f.status, f.body.offset], [400, 200, -5]);
      assert.deepEqual(ids(f.body.data), ids((await page(p.clean.url, SB, 'offset=232&limit=5')).data));
    },
  ),
  fault(
    'odd-long-value-500',
    'INP-ROBUST',
    'a filter[status] or sort value of 256 to 4096 characters crashes the handler (a varchar(255) column); longer: 400',
    {
      queryValue: (name, value) => {
        if (!isTextParam(name) || value.length <= COLUMN_WIDTH) return undefined;
        if (value.length > GUARD_LENGTH) return reject(400, MESSAGES.valueTooLong, name);
        throw new FaultCrash('value too long for type character varying(255)');
      },
    },
    async (p) => {
      for (const name of ['filter[status]', 'sort']) {
        await assertCrash(p, list(SB, `${name}=${'x'.repeat(COLUMN_WIDTH + 1)}`));
        await assertCrash(p, list(SB, `${name}=${'x'.repeat(GUARD_LENGTH)}`));
        await assertSame(p, list(SB, `${name}=${'x'.repeat(COLUMN_WIDTH)}`));
        const guarded = await call(p.faulty.url, list(SB, `${name}=${'x'.repeat(GUARD_LENGTH + 1)}`));
        assert.equal(guarded.status, 400, 'longer: the length guard');
      }
      await assertSame(p, list(SB, `x=${'y'.repeat(1000)}`));
    },
  ),
  fault(
    'odd-non-ascii-500',
    'INP-ROBUST',
    'a non-ASCII character in sort or filter[status] crashes the handler: 500',
    {
      queryValue: (name, value) => {
        if (isTextParam(name) && /[\u0080-\uffff]/.test(value))
          throw new FaultCrash('invalid byte sequence for encoding');
        return undefined;
      },
    },
    async (p) => {
      await assertCrash(p, list(SB, 'sort=am%C3%B6unt'));
      await assertCrash(p, list(SB, 'filter[status]=COMPL%C3%89TED'));
      await assertSame(p, list(SB, 'note=%C3%A9&filter[status]=COMPLETED'));
      await assertSame(p, list(SB, 'sort=-amount&limit=5'));
    },
  ),
  fault(
    'odd-control-char-500',
    'INP-ROBUST',
    'a control character (U+0000 to U+001F) in any query value crashes the handler: 500',
    {
      queryValue: (_name, value) => {
        if (hasControlCharacter(value)) throw new FaultCrash('unterminated string: control character in input');
        return undefined;
      },
    },
    async (p) => {
      for (const query of ['sort=amount%00', 'filter[status]=%01', 'limit=5%0A', 'x=%1F']) {
        await assertCrash(p, list(SB, query));
      }
      await assertSame(p, list(SB, 'sort=%7F'));
      await assertSame(p, list(SB, 'filter[status]=PENDING&offset=3'));
    },
  ),
];
