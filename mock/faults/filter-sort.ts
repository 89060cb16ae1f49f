/** Faults of the status filter and the amount sort (§4.2, rule 5). */
import { STATUSES, type Status } from '../data.ts';
import type { Filter, Row } from '../store.ts';
import { type Fault, fault, memoised } from './fault.ts';

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

export const FILTER_SORT_FAULTS: readonly Fault[] = [
  fault('filter-ignored', 'FLT-STATUS', 'filter[status] is ignored: every status is listed and counted', {
    plan: (p) => {
      Object.assign(p, { rows: 'all', total: 'all' });
    },
  }),
  fault('filter-case-insensitive', 'FLT-STATUS', 'filter[status]=completed matches COMPLETED', {
    oddStatus: (raw) => STATUSES.find((s) => s === raw.toUpperCase()),
  }),
  fault(
    'filter-like-pattern',
    'FLT-STATUS',
    'filter[status] is matched with SQL LIKE: COMP% or COMPLETE_ matches COMPLETED (the first status it matches)',
    {
      oddStatus: (raw) => {
        if (!/[%_]/.test(raw)) return undefined;
        const like = new RegExp(
          `^${raw
            .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
            .replace(/%/g, '.*')
            .replace(/_/g, '.')}$`,
          's',
        );
        return STATUSES.find((s) => like.test(s));
      },
    },
  ),
  fault(
    'filter-list-first',
    'FLT-STATUS',
    "filter[status] is parsed as a list (qs's comma option, a split on , | or ;) and its first value filters: COMPLETED,PENDING lists the COMPLETED payments",
    { oddStatus: (raw) => STATUSES.find((s) => s === raw.split(/[,|;]/)[0] && /[,|;]/.test(raw)) },
  ),
  fault(
    'filter-value-normalised',
    'FLT-STATUS',
    'filter[status] is normalised before the lookup (NFKC, invisible characters stripped): ＣＯＭＰＬＥＴＥＤ or C\u200BOMPLETED lists the COMPLETED payments',
    {
      oddStatus: (raw) =>
        STATUSES.find((s) => s === raw.normalize('NFKC').replace(/[\u200B-\u200D\u2060\uFEFF\u00AD]/g, '')),
    },
  ),
  fault(
    'filter-double-decoded',
    'FLT-STATUS',
    'filter[status] is URL-decoded a second time before the lookup: %43OMPLETED (sent as %2543OMPLETED) lists the COMPLETED payments',
    {
      oddStatus: (raw) => {
        try {
          return STATUSES.find((s) => s === decodeURIComponent(raw));
        } catch {
          return undefined;
        }
      },
    },
  ),
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
  fault(
    'other-sandbox-filter-ignored',
    'FLT-STATUS',
    "filter[status] is ignored on the second sandbox merchant's listing (its data lives in a shard of its own, whose query builder drops the filter): the whole listing is served, total and all",
    {
      plan: (p, c) => {
        if (c.access.merchant?.role === 'otherSandbox') Object.assign(p, { rows: 'all', total: 'all' });
      },
    },
  ),
];
