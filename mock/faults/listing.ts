/**
 * Faults of the listing itself: envelope, echo, page size, total, partition, empty pages, cap, filter,
 * sort, and odd query values (§2, §4.2, §7, §8).
 */
import { STATUSES, type Status } from '../data.ts';
import type { Filter, Row } from '../store.ts';
import { type Fault, FaultCrash, fault, memoised } from './fault.ts';

const pastEnd = (offset: number, total: number) => offset >= total;
const isAscDesc = (order: string) => order === 'asc' || order === 'desc';
const isStatus = (filter: Filter): filter is Status => filter !== 'all' && filter !== 'none';

const amountOf = (r: Row) => Number(r.amount);
const textOf = (r: Row) => String(r.amount);
/** Amounts compared as text; the sort is stable, so equal amounts keep the list's tie order. */
const byText = (a: Row, b: Row) => (textOf(a) < textOf(b) ? -1 : textOf(a) > textOf(b) ? 1 : 0);
const ascText = memoised((asc: readonly Row[]) => [...asc].sort(byText));
const descText = memoised((desc: readonly Row[]) => [...desc].sort((a, b) => byText(b, a)));
/** Reversing the opposite order gives the same amounts order with the other tie order. */
const reversed = memoised((rows: readonly Row[]) => [...rows].reverse());

export const LISTING_FAULTS: readonly Fault[] = [
  // Envelope (§2)
  fault('envelope-success-string', 'ENV-SCHEMA', 'listing envelope carries success as the string "true"', {
    body: (b, f) => {
      if (f.route === 'list') b.success = 'true';
    },
  }),
  fault('envelope-missing-message', 'ENV-SCHEMA', 'listing envelope has no message field', {
    body: (b, f) => {
      if (f.route === 'list') b.message = undefined;
    },
  }),
  fault('envelope-total-string', 'ENV-SCHEMA', 'listing envelope carries total as a string ("237")', {
    body: (b, f) => {
      if (f.route === 'list') b.total = String(b.total);
    },
  }),
  // Echo (§4.2 rule 3)
  fault('echo-offset-zero', 'PAG-ECHO', 'offset always echoed as 0; the data is still the right slice', {
    echo: (e) => {
      e.offset = 0;
    },
  }),
  fault('echo-limit-omitted-zero', 'PAG-ECHO', 'limit omitted: echoes limit 0 while serving the default', {
    echo: (e, f) => {
      if (!f.query.limitGiven) e.limit = 0;
    },
  }),
  fault('echo-offset-clamped', 'PAG-ECHO', 'offset >= total is echoed as total instead of as sent', {
    echo: (e, f) => {
      if (pastEnd(f.query.offset, f.total)) e.offset = f.total;
    },
  }),
  fault('default-limit-25', 'PAG-DEFAULT', 'limit omitted: 25 records, echoed as 25 (env still announces 10)', {
    settings: (s) => {
      s.defaultLimit = 25;
    },
  }),
  // Page size, total, partition, empty (§4.2 rules 1, 2, 4)
  fault('page-size-one-short', 'PAG-SIZE', 'full pages carry limit-1 records', {
    slice: (s, f) => {
      if (s.end - s.start === f.query.limit) s.end -= 1;
    },
  }),
  fault('total-is-page-size', 'PAG-TOTAL', 'total is the size of the page, not the number of matches', {
    echo: (e, f) => {
      e.total = f.dataLength;
    },
  }),
  fault('total-after-offset', 'PAG-TOTAL', 'total counts only the records from offset on (total - offset)', {
    echo: (e, f) => {
      e.total = Math.max(0, f.total - f.query.offset);
    },
  }),
  fault(
    'offset-off-by-one-low',
    'PAG-PARTITION',
    'offset > 0 starts the slice at offset-1: duplicates at page boundaries',
    {
      slice: (s, f) => {
        if (f.query.offset > 0)
          Object.assign(s, { start: s.start - 1, end: Math.min(s.start - 1 + f.query.limit, f.total) });
      },
    },
  ),
  fault('offset-off-by-one-high', 'PAG-PARTITION', 'offset > 0 starts the slice at offset+1: gaps at page boundaries', {
    slice: (s, f) => {
      if (f.query.offset > 0)
        Object.assign(s, { start: s.start + 1, end: Math.min(s.start + 1 + f.query.limit, f.total) });
    },
  }),
  fault('past-end-nonempty', 'PAG-EMPTY', 'offset >= total returns the last page instead of []', {
    slice: (s, f) => {
      if (f.total > 0 && pastEnd(f.query.offset, f.total))
        Object.assign(s, { start: Math.max(0, f.total - f.query.limit), end: f.total });
    },
  }),
  fault('past-end-total-zero', 'PAG-EMPTY', 'offset >= total reports total 0', {
    echo: (e, f) => {
      if (pastEnd(f.query.offset, f.total)) e.total = 0;
    },
  }),
  // Cap (§8)
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
      const requested = new URLSearchParams(f.request.search).get('limit') ?? '';
      const n = /^\d+$/.test(requested) ? Number(requested) : Number.NaN;
      if (n > f.query.limit) e.limit = n;
    },
  }),
  // Filter (§4.2)
  fault('filter-ignored', 'FLT-STATUS', 'filter[status] is ignored: every status is listed and counted', {
    plan: (p) => {
      Object.assign(p, { rows: 'all', total: 'all' });
    },
  }),
  fault('filter-case-insensitive', 'FLT-STATUS', 'filter[status]=completed matches COMPLETED', {
    oddStatus: (raw) => STATUSES.find((s) => s === raw.toUpperCase()),
  }),
  fault('filter-total-unfiltered', 'FLT-STATUS', 'data is filtered, but total counts the unfiltered set', {
    plan: (p) => {
      p.total = 'all';
    },
  }),
  fault('filter-after-pagination', 'FLT-BEFORE-PAGE', 'slices the unfiltered list, then filters the page', {
    plan: (p, c) => {
      if (isStatus(c.query.filter)) p.rows = 'all';
    },
    page: (data, f) => {
      const status = f.query.filter;
      return isStatus(status) ? data.filter((r) => r.status === status) : undefined;
    },
  }),
  // Sort (§4.2)
  fault('sort-direction-inverted', 'SRT-AMOUNT', 'sort=-amount gives ascending order and sort=amount descending', {
    plan: (p) => {
      if (isAscDesc(p.order)) p.order = p.order === 'asc' ? 'desc' : 'asc';
    },
  }),
  fault('sort-per-page', 'SRT-AMOUNT', 'paginates the unsorted order, then sorts each page', {
    plan: (p) => {
      if (isAscDesc(p.order)) p.order = 'unsorted';
    },
    page: (data, f) => {
      if (f.query.sort === undefined) return undefined;
      const sign = f.query.sort === 'amount' ? 1 : -1;
      return [...data].sort((a, b) => sign * (amountOf(a) - amountOf(b)));
    },
  }),
  fault('sort-as-strings', 'SRT-AMOUNT', 'compares amounts as strings ("9" after "10")', {
    rows: (rows, p) => (p.order === 'asc' ? ascText(rows) : p.order === 'desc' ? descText(rows) : undefined),
  }),
  fault('sort-unstable-ties', 'SRT-AMOUNT', 'tie order flips from one request to the next', {
    rows: (_rows, p, c) => {
      if (c.requestNo % 2 !== 0 || !isAscDesc(p.order)) return undefined;
      return reversed(c.views.views[p.rows][p.order === 'asc' ? 'desc' : 'asc']);
    },
  }),
  fault('sort-ignored-with-filter', 'SRT-FILTER', 'when filter and sort are both given, sort is ignored', {
    plan: (p, c) => {
      if (c.query.filter !== 'all' && c.query.sort !== undefined) p.order = 'unsorted';
    },
  }),
  // Odd input (§7)
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
];
