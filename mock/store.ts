/**
 * Every list the mock can serve, computed once at start: per listing, per status filter, per order.
 * A request only slices one of these arrays; nothing sorts or filters the whole data set per request.
 */
import { type Dataset, MERCHANTS, type Merchant, type Payment, STATUSES, type Status } from './data.ts';
import type { Variants } from './variants.ts';

/** What the status filter selects: all records, one status, or nothing (an unknown status). */
export type Filter = Status | 'all' | 'none';
export const FILTERS: readonly Filter[] = ['all', 'none', ...STATUSES];

/** Orders held for each filtered list: creation order (per variant `unsorted`), amount ascending, descending. */
export const ORDERS = ['unsorted', 'asc', 'desc'] as const;
export type Order = (typeof ORDERS)[number];

/** A payment as serialized (amount as number or string, optional extra fields). */
export interface Row {
  readonly id: string;
  readonly merchantId: string;
  readonly amount: number | string;
  readonly currency: string;
  readonly status: Status;
  readonly createdAt: string;
  readonly description?: string;
}

export type Views = Readonly<Record<Filter, Readonly<Record<Order, readonly Row[]>>>>;

/** The precomputed lists of one listing (or of a union of listings), and its totals. */
export interface ListingViews {
  readonly views: Views;
  /** Number of records per filter (the `total` of an unpaginated query). */
  readonly totals: Readonly<Record<Filter, number>>;
}

export interface Store {
  merchant(id: string): Merchant | undefined;
  /** A row's JSON text, serialized once at start (the hot path joins these instead of stringifying rows). */
  json(row: Row): string;
  /** The union of the given listings (keys `merchantId:mode`); [] gives the empty listing. */
  listing(keys: readonly string[]): ListingViews;
  readonly dataset: Dataset;
}

type Compare = (a: Payment, b: Payment) => number;

const byId: Compare = (a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const byIdDesc: Compare = (a, b) => -byId(a, b);
const byCreated: Compare = (a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0);

function render(p: Payment, variants: Variants): Row {
  const row: Row = {
    id: p.id,
    merchantId: p.merchantId,
    amount: variants.amount === 'string' ? String(p.amount) : p.amount,
    currency: p.currency,
    status: p.status,
    createdAt: p.createdAt,
  };
  return variants.extras === 'on' ? { ...row, description: `Order ${p.id.slice(-6).toUpperCase()}` } : row;
}

function orderings(variants: Variants): Record<Order, Compare> {
  const ties = variants.ties === 'id' ? byId : byIdDesc;
  return {
    unsorted: variants.unsorted === 'created' ? byCreated : (a, b) => -byCreated(a, b),
    asc: (a, b) => a.amount - b.amount || ties(a, b),
    desc: (a, b) => b.amount - a.amount || ties(a, b),
  };
}

function buildListing(payments: readonly Payment[], variants: Variants, rows: Map<Payment, Row>): ListingViews {
  const compares = orderings(variants);
  const views = {} as Record<Filter, Record<Order, readonly Row[]>>;
  const totals = {} as Record<Filter, number>;
  for (const filter of FILTERS) {
    const selected = payments.filter((p) => filter === 'all' || p.status === filter);
    const perOrder = {} as Record<Order, readonly Row[]>;
    for (const order of ORDERS) {
      perOrder[order] = Object.freeze([...selected].sort(compares[order]).map((p) => rows.get(p) as Row));
    }
    views[filter] = perOrder;
    totals[filter] = selected.length;
  }
  return { views, totals };
}

export function buildStore(dataset: Dataset, variants: Variants): Store {
  const rows = new Map<Payment, Row>();
  for (const payments of dataset.listings.values()) for (const p of payments) rows.set(p, render(p, variants));

  const cache = new Map<string, ListingViews>();
  const listing = (keys: readonly string[]): ListingViews => {
    const id = keys.length === 1 ? (keys[0] as string) : [...keys].sort().join('+');
    let found = cache.get(id);
    if (!found) {
      const payments = keys.flatMap((k) => dataset.listings.get(k) ?? []);
      found = buildListing(payments, variants, rows);
      cache.set(id, found);
    }
    return found;
  };
  // Precompute every listing the clean mock serves now, so no request pays for a sort. A union of listings
  // (only faults ask for one) is built on its first request and kept.
  listing([]);
  for (const key of dataset.listings.keys()) listing([key]);

  const merchants = new Map(MERCHANTS.map((m) => [m.id, m]));
  const texts = new Map<Row, string>([...rows.values()].map((row) => [row, JSON.stringify(row)]));
  return {
    merchant: (id) => merchants.get(id),
    json: (row) => texts.get(row) ?? JSON.stringify(row),
    listing,
    dataset,
  };
}
