/** Faults of odd query input (§7): a 5xx, or a 200 that breaks the envelope, for values a client may send. */
import { MESSAGES, reject } from '../errors.ts';
import { type Fault, FaultCrash, fault } from './fault.ts';

/** The values a handler stores or looks up as text (a status column, a sort key), unlike the numbers. */
const isTextParam = (name: string) => name === 'filter[status]' || name === 'sort';
/** Values up to this long fit the column; longer ones crash the query until the length guard refuses them. */
const COLUMN_WIDTH = 255;
const GUARD_LENGTH = 4096;
const hasControlCharacter = (value: string) => [...value].some((ch) => ch.charCodeAt(0) < 0x20);

/** A short index column: a status filter of 33 to 255 characters crashes, longer ones meet the 255 check first. */
const INDEX_WIDTH = 32;

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
  ),
  fault(
    'offset-parser-split',
    'INP-ROBUST',
    'the validator reads offset with parseInt and echoes it (1e2 → 1, 0x10 → 0), the query layer with Number (1e2 → 100, 0x10 → 16): the page is another window than the one it echoes',
    {
      oddParam: (name, raw) => {
        const used = Number(raw.trim());
        const shown = Number.parseInt(raw, 10);
        const split = Number.isSafeInteger(used) && used >= 0 && Number.isSafeInteger(shown) && shown >= 0;
        return name === 'offset' && split && used !== shown ? used : undefined;
      },
      echo: (e, f) => {
        const raw = new URLSearchParams(f.request.search).get('offset');
        const shown = raw === null ? Number.NaN : Number.parseInt(raw, 10);
        if (Number.isSafeInteger(shown) && shown !== e.offset && !/^\d+$/.test(raw ?? '')) e.offset = shown;
      },
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
  ),
  fault(
    'odd-mid-length-filter-500',
    'INP-ROBUST',
    'a filter[status] of 33 to 255 characters crashes the handler (a varchar(32) index); shorter and longer values do not',
    {
      queryValue: (name, value) => {
        const n = [...value].length;
        if (name === 'filter[status]' && n > INDEX_WIDTH && n <= COLUMN_WIDTH)
          throw new FaultCrash('index row size exceeds maximum for index "payments_status_idx"');
        return undefined;
      },
    },
  ),
  fault(
    'odd-bracketed-filter-500',
    'INP-ROBUST',
    'filter[status][]=X (a nested key the query parser turns into an array) crashes the handler: 500',
    {
      queryValue: (name) => {
        if (name.startsWith('filter[status][')) throw new FaultCrash('status.toUpperCase is not a function');
        return undefined;
      },
    },
  ),
  fault('odd-non-ascii-500', 'INP-ROBUST', 'a non-ASCII character in sort or filter[status] crashes the handler: 500', {
    queryValue: (name, value) => {
      if (isTextParam(name) && /[\u0080-\uffff]/.test(value))
        throw new FaultCrash('invalid byte sequence for encoding');
      return undefined;
    },
  }),
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
  ),
];
