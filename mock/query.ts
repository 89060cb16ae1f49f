/**
 * Filter, sort and paginate (§4.2 rules 1-5): choose a precomputed list, take one slice of it, echo.
 * Filter and sort are already applied in the precomputed lists, so they always come before pagination.
 */
import type { Status } from './data.ts';
import type { Switchboard } from './hooks.ts';
import type { ParsedQuery } from './params.ts';
import type { Filter, ListingViews, Order, Row } from './store.ts';

/** Which precomputed list serves the page, and which one counts the total. Faults may rewrite it. */
export interface Plan {
  rows: Filter;
  total: Filter;
  order: Order;
  /** Faulty only: filter the page after slicing. */
  pageFilter?: Status;
  /** Faulty only: sort the page after slicing. */
  pageSort?: 'asc' | 'desc';
}

/** The half-open range [start, end) of the chosen list that becomes the page. */
export interface Slice {
  start: number;
  end: number;
}

/** The numbers the envelope echoes. */
export interface Echo {
  offset: number;
  limit: number;
  total: number;
}

/** What slice and echo hooks may look at: the query, the true total, and the page size served. */
export interface PageFacts {
  query: ParsedQuery;
  total: number;
  dataLength: number;
  requestNo: number;
}

export interface Page {
  data: readonly Row[];
  echo: Echo;
}

const ORDER_OF_SORT = { amount: 'asc', '-amount': 'desc' } as const;

const amountOf = (r: Row) => Number(r.amount);

export function runQuery(views: ListingViews, query: ParsedQuery, board: Switchboard, requestNo: number): Page {
  const plan: Plan = {
    rows: query.filter,
    total: query.filter,
    order: query.sort === undefined ? 'unsorted' : ORDER_OF_SORT[query.sort],
  };
  for (const rewrite of board.plan) rewrite(plan, query, requestNo);

  const rows = views.views[plan.rows][plan.order];
  const total = views.totals[plan.total];
  const facts: PageFacts = { query, total, dataLength: 0, requestNo };

  const start = query.offset;
  const slice: Slice = { start, end: Math.min(start + query.limit, rows.length) };
  for (const shift of board.slice) shift(slice, facts);

  let data = slice.start < slice.end ? rows.slice(slice.start, slice.end) : [];
  if (plan.pageFilter !== undefined) data = data.filter((r) => r.status === plan.pageFilter);
  if (plan.pageSort !== undefined) {
    const sign = plan.pageSort === 'asc' ? 1 : -1;
    data = [...data].sort((a, b) => sign * (amountOf(a) - amountOf(b)));
  }

  facts.dataLength = data.length;
  const echo: Echo = { offset: query.offset, limit: query.limitEcho, total };
  for (const rewrite of board.echo) rewrite(echo, facts);
  return { data, echo };
}
