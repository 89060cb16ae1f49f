/**
 * Filter, sort and paginate (§4.2 rules 1-5): choose a precomputed list, take one slice of it, echo.
 * Filter and sort are already applied in the precomputed lists, so they always come before pagination.
 */
import type { Access } from './authorize.ts';
import type { Board, RequestFacts } from './hooks.ts';
import type { ParsedQuery } from './params.ts';
import type { Filter, ListingViews, Order, Row, Store } from './store.ts';

/** Which precomputed list serves the page, and which one counts the total. Faults may rewrite it. */
interface Plan {
  rows: Filter;
  total: Filter;
  order: Order;
}

/** The half-open range [start, end) of the chosen list that becomes the page. */
interface Slice {
  start: number;
  end: number;
}

/** The numbers the envelope echoes. */
interface Echo {
  offset: number;
  limit: number;
  total: number;
}

/** What query hooks may look at: the request, its access decision, its parsed query, the listing's views. */
interface QueryContext {
  request: RequestFacts;
  access: Access;
  query: ParsedQuery;
  views: ListingViews;
  /** Every list the mock holds (a fault may serve another listing's). */
  store: Store;
  requestNo: number;
}

/** What slice, page and echo hooks may look at besides: the plan, the true total, and the page size served. */
interface PageFacts extends QueryContext {
  plan: Plan;
  total: number;
  dataLength: number;
}

export interface Page {
  data: readonly Row[];
  echo: Echo;
}

/** Where faults hook into the query, in the order they are asked. */
export interface QueryHooks {
  /** Rewrite which precomputed list serves the page and which counts the total. */
  plan?(plan: Plan, context: QueryContext): void;
  /** Replace the list that serves the page (a fault's own ordering, computed once and memoised). */
  rows?(rows: readonly Row[], plan: Plan, context: QueryContext): readonly Row[] | undefined;
  /** Move the slice of the list that becomes the page. */
  slice?(slice: Slice, facts: PageFacts): void;
  /** Rewrite the rows of the page after slicing. */
  page?(data: readonly Row[], facts: PageFacts): readonly Row[] | undefined;
  /** Rewrite the envelope numbers: offset, limit, total. */
  echo?(echo: Echo, facts: PageFacts): void;
}

const ORDER_OF_SORT = { amount: 'asc', '-amount': 'desc' } as const;

export function runQuery(context: QueryContext, board: Board<QueryHooks>): Page {
  const { query, views } = context;
  const plan: Plan = {
    rows: query.filter,
    total: query.filter,
    order: query.sort === undefined ? 'unsorted' : ORDER_OF_SORT[query.sort],
  };
  for (const rewrite of board.plan) rewrite(plan, context);

  let rows = views.views[plan.rows][plan.order];
  for (const replace of board.rows) rows = replace(rows, plan, context) ?? rows;
  const total = views.totals[plan.total];
  const { request, access, store, requestNo } = context;
  const facts: PageFacts = { request, access, query, views, store, requestNo, plan, total, dataLength: 0 };

  const start = query.offset;
  const slice: Slice = { start, end: Math.min(start + query.limit, rows.length) };
  for (const shift of board.slice) shift(slice, facts);

  let data: readonly Row[] = slice.start < slice.end ? rows.slice(slice.start, slice.end) : [];
  for (const rewrite of board.page) data = rewrite(data, facts) ?? data;

  facts.dataLength = data.length;
  const echo: Echo = { offset: query.offset, limit: query.limit, total };
  for (const rewrite of board.echo) rewrite(echo, facts);
  return { data, echo };
}
