/** Faults of the cap (§8): more than 100 records in one answer, or a clamp echoed wrongly. */
import { IDENTITY } from '../identity.ts';
import { type Fault, fault } from './fault.ts';

const DIGITS = /^\d+$/;
/** A limit the query layer can use: what `Number` makes of the raw value, when it is a positive integer. */
const usable = (raw: string) => {
  const n = Number(raw);
  return Number.isSafeInteger(n) && n >= 1 ? n : undefined;
};

export const CAP_FAULTS: readonly Fault[] = [
  fault('uncapped', 'LIM-CAP', 'no cap: limit > 100 serves and echoes that many records', {
    settings: (s) => {
      s.maxLimit = Number.MAX_SAFE_INTEGER;
    },
  }),
  fault('cap-off-by-one', 'LIM-CAP', 'caps at 101 instead of 100', {
    settings: (s) => {
      s.maxLimit += 1;
    },
  }),
  fault('cap-echo-requested', 'LIM-CAP', 'limit > 100 serves 100 records but echoes the requested limit', {
    settings: (s) => {
      s.overLimit = 'clamp';
    },
    echo: (e, f) => {
      // The requested limit (first value, as the validator read it); above the limit in force, it was clamped.
      const requested = new URLSearchParams(f.request.search).get('limit') ?? '';
      const n = DIGITS.test(requested) ? Number(requested) : Number.NaN;
      if (n > f.query.limit) e.limit = n;
    },
  }),
  fault(
    'cap-exponent-bypass',
    'LIM-CAP',
    'the validator reads limit with parseInt (1e3 → 1, passes), the query with Number (1e3 → 1000): no cap',
    {
      oddParam: (name, raw) => {
        if (name !== 'limit' || !/^\d+e\d+$/i.test(raw)) return undefined;
        const checked = Number.parseInt(raw, 10);
        return checked >= 1 && checked <= IDENTITY.maxLimit ? usable(raw) : undefined;
      },
    },
  ),
  fault(
    'cap-repeated-last-wins',
    'LIM-CAP',
    'a repeated limit is accepted: the validator checks the first value, the query uses the last (limit=5&limit=500)',
    {
      repeated: (param) => param === 'limit',
      query: (q, search) => {
        const values = new URLSearchParams(search).getAll('limit');
        const last = values.at(-1) ?? '';
        const n = values.length > 1 && DIGITS.test(last) ? usable(last) : undefined;
        if (n !== undefined) q.limit = n;
      },
    },
  ),
  fault(
    'cap-plus-sign-bypass',
    'LIM-CAP',
    'limit=+500 passes a validator that only caps plain digit strings and is served uncapped',
    {
      // A literal + in a query string reads as a space; both spellings reach Number() as 500.
      oddParam: (name, raw) => (name === 'limit' && /^[+ ]\d+$/.test(raw) ? usable(raw) : undefined),
    },
  ),
  fault(
    'cap-lenient-parser-bypass',
    'LIM-CAP',
    "the validator caps a limit written as a number (digits, a sign, decimals, an exponent); the query layer reads any other spelling with a lenient parser (trimmed, NFKC, a hex prefix, digit separators, leading digits): ' 500', 0x1F4, 500abc, 5_00 or fullwidth digits serve that many records",
    {
      oddParam: (name, raw) => {
        if (name !== 'limit' || /^[+-]?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(raw)) return undefined;
        const t = raw.normalize('NFKC').trim().replaceAll('_', '');
        const n = /^0x[0-9a-f]+$/i.test(t) ? Number(t) : Number.parseInt(t, 10);
        return Number.isSafeInteger(n) && n >= 1 ? n : undefined;
      },
    },
  ),
  fault(
    'cap-bracket-bypass',
    'LIM-CAP',
    "the validator caps a limit that is a string; the query-string parser makes limit[]=500 (or limit[0]=500) an array, which the validator skips, and the query layer's Number(['500']) is 500: that many records",
    {
      query: (query, search) => {
        const params = new URLSearchParams(search);
        if (params.has('limit')) return;
        const name = [...params.keys()].find((k) => /^limit\[\d*\]$/.test(k));
        const n = name === undefined ? Number.NaN : Number(params.get(name));
        if (Number.isSafeInteger(n) && n >= 1) Object.assign(query, { limit: n, limitGiven: true });
      },
    },
  ),
  fault(
    'limit-zero-unbounded',
    'LIM-CAP',
    "a limit parseInt reads as 0 (0, 0.5) passes the validator as 'no limit' (MongoDB's limit(0), an ORM's 0): every record from the offset on, limit echoed 0",
    {
      oddParam: (name, raw) => (name === 'limit' && Number.parseInt(raw, 10) === 0 ? 0 : undefined),
      slice: (slice, facts) => {
        if (facts.query.limit === 0) slice.end = facts.total;
      },
    },
  ),
  fault(
    'limit-negative-slice',
    'LIM-CAP',
    'a negative limit is taken as it is and the page is data.slice(offset, offset + limit): limit=-1 serves every record but the last',
    {
      oddParam: (name, raw) => (name === 'limit' && /^-\d+$/.test(raw) ? Number(raw) : undefined),
      slice: (slice, facts) => {
        const { offset, limit } = facts.query;
        // JavaScript's slice: a negative end counts from the end of the list.
        if (limit < 0) slice.end = offset + limit < 0 ? Math.max(0, facts.total + offset + limit) : offset + limit;
      },
    },
  ),
];
