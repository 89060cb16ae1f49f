/**
 * Every list the mock can serve, computed once at start: per listing, per status filter, per order.
 * A request only slices one of these arrays; nothing sorts or filters the whole data set per request.
 * A growing data set (MockOptions.grow) inserts each new payment into the lists it belongs to, in place of
 * rebuilding them: new arrays, so a request already holding a list keeps a consistent one.
 */
import { type Dataset, MERCHANTS, type Merchant, type Payment, paymentSource, STATUSES, type Status } from './data.ts';
import type { Variants } from './variants.ts';

/** What the status filter selects: all records, one status, or nothing (an unknown status). */
export type Filter = Status | 'all' | 'none';
export const FILTERS: readonly Filter[] = ['all', 'none', ...STATUSES];

/** Orders held for each filtered list: creation order (per variant `unsorted`), amount ascending, descending. */
const ORDERS = ['unsorted', 'asc', 'desc'] as const;
export type Order = (typeof ORDERS)[number];

/** A payment as serialized (id as string or integer, amount as number or string, optional extra fields). */
export interface Row {
  readonly id: string | number;
  readonly merchantId: string;
  readonly amount: number | string;
  readonly currency: string;
  /** The payment's status, under the name it is served with (a calibration may rename the mock's statuses). */
  readonly status: string;
  readonly createdAt: string;
  readonly description?: string;
}

type Views = Readonly<Record<Filter, Readonly<Record<Order, readonly Row[]>>>>;

/** The precomputed lists of one listing (or of a union of listings), and its totals. */
export interface ListingViews {
  readonly views: Views;
  /** Number of records per filter (the `total` of an unpaginated query). */
  readonly totals: Readonly<Record<Filter, number>>;
}

export interface Store {
  merchant(id: string): Merchant | undefined;
  /** A row's JSON text, serialized once (the hot path joins these instead of stringifying rows). */
  json(row: Row): string;
  /** The union of the given listings (keys `merchantId:mode`); [] gives the empty listing. */
  listing(keys: readonly string[]): ListingViews;
  /** The data set the mock started with (a growing store's new payments are not in it). */
  readonly dataset: Dataset;
  /** Appends one new payment to every listing (each merchant, each mode); later requests see it. */
  grow(): void;
}

type Compare = (a: Payment, b: Payment) => number;

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const byCreated: Compare = (a, b) => byText(a.createdAt, b.createdAt);

/** Integer ids (variant ids=integer): 1001, 1002, … in creation order over the whole data set, then as payments come. */
const FIRST_INTEGER_ID = 1001;

/**
 * The rows of the data set as served, made as payments come (ids, amounts, extras per variant; statuses under the
 * names a calibration gave them), with their texts.
 */
function rowMaker(variants: Variants, names: Readonly<Record<string, string>>) {
  const integerIds = new Map<Payment, number>();
  const rows = new Map<Payment, Row>();
  /** The payment behind each row, for inserting into a sorted list. */
  const payments = new Map<Row, Payment>();
  const texts = new Map<Row, string>();
  /** The payment as served; its JSON text kept next to it. */
  const add = (p: Payment): Row => {
    if (variants.ids === 'integer') integerIds.set(p, FIRST_INTEGER_ID + integerIds.size);
    const base: Row = {
      id: integerIds.get(p) ?? p.id,
      merchantId: p.merchantId,
      amount: serializeAmount(p.amount, variants.amount),
      currency: p.currency,
      status: names[p.status] ?? p.status,
      createdAt: p.createdAt,
    };
    const row = variants.extras === 'on' ? { ...base, description: `Order ${p.id.slice(-6).toUpperCase()}` } : base;
    rows.set(p, row);
    payments.set(row, p);
    texts.set(row, JSON.stringify(row));
    return row;
  };
  return { integerIds, rows, payments, texts, add };
}
type Rows = ReturnType<typeof rowMaker>;

/** Each order's comparison: creation order (per variant `unsorted`), amount both ways with ties by id (variant `ties`). */
function comparesOf(variants: Variants, integerIds: ReadonlyMap<Payment, number>): Record<Order, Compare> {
  const ties: Compare =
    variants.ids === 'integer'
      ? (a, b) => (variants.ties === 'id' ? 1 : -1) * ((integerIds.get(a) ?? 0) - (integerIds.get(b) ?? 0))
      : (a, b) => (variants.ties === 'id' ? 1 : -1) * byText(a.id, b.id);
  return {
    unsorted: variants.unsorted === 'created' ? byCreated : (a, b) => -byCreated(a, b),
    asc: (a, b) => a.amount - b.amount || ties(a, b),
    desc: (a, b) => b.amount - a.amount || ties(a, b),
  };
}

/** Every list of a listing: per filter, per order, sorted once. */
function buildListing(list: readonly Payment[], rows: Rows, compares: Record<Order, Compare>): ListingViews {
  const views = {} as Record<Filter, Record<Order, readonly Row[]>>;
  const totals = {} as Record<Filter, number>;
  for (const filter of FILTERS) {
    const selected = list.filter((p) => filter === 'all' || p.status === filter);
    const perOrder = {} as Record<Order, readonly Row[]>;
    for (const order of ORDERS) {
      perOrder[order] = Object.freeze([...selected].sort(compares[order]).map((p) => rows.rows.get(p) as Row));
    }
    views[filter] = perOrder;
    totals[filter] = selected.length;
  }
  return { views, totals };
}

/** The listing's lists with one more payment: only the lists it belongs to change, each a new array. */
function withPayment(listing: ListingViews, p: Payment, rows: Rows, compares: Record<Order, Compare>): ListingViews {
  const row = rows.add(p);
  const views = { ...listing.views } as Record<Filter, Record<Order, readonly Row[]>>;
  const totals = { ...listing.totals };
  for (const filter of ['all', p.status] as const) {
    const perOrder = {} as Record<Order, readonly Row[]>;
    for (const order of ORDERS) {
      perOrder[order] = inserted(listing.views[filter][order], row, p, compares[order], rows.payments);
    }
    views[filter] = perOrder;
    totals[filter] += 1;
  }
  return { views, totals };
}

/** A sorted list with the row inserted where the order puts it (binary search, one copy). */
function inserted(
  list: readonly Row[],
  row: Row,
  p: Payment,
  compare: Compare,
  payments: ReadonlyMap<Row, Payment>,
): readonly Row[] {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (compare(payments.get(list[mid] as Row) as Payment, p) <= 0) low = mid + 1;
    else high = mid;
  }
  return Object.freeze([...list.slice(0, low), row, ...list.slice(low)]);
}

export function buildStore(
  dataset: Dataset,
  variants: Variants,
  statusNames: Readonly<Record<string, string>> = {},
): Store {
  const rows = rowMaker(variants, statusNames);
  for (const p of [...dataset.listings.values()].flat().sort(byCreated)) rows.add(p);
  const compares = comparesOf(variants, rows.integerIds);

  const current = new Map<string, readonly Payment[]>(dataset.listings);
  const cache = new Map<string, ListingViews>();
  const listing = (keys: readonly string[]): ListingViews => {
    const id = keys.length === 1 ? (keys[0] as string) : [...keys].sort().join('+');
    let found = cache.get(id);
    if (!found) {
      found = buildListing(
        keys.flatMap((k) => current.get(k) ?? []),
        rows,
        compares,
      );
      cache.set(id, found);
    }
    return found;
  };
  // Precompute every listing the clean mock serves now, so no request pays for a sort. A union of listings
  // (only faults ask for one) is built on its first request and kept until the data set grows.
  listing([]);
  for (const key of dataset.listings.keys()) listing([key]);

  let next: ((key: string) => Payment) | undefined;
  const grow = () => {
    next ??= paymentSource(dataset);
    for (const key of dataset.listings.keys()) {
      const p = next(key);
      current.set(key, [...(current.get(key) ?? []), p]);
      cache.set(key, withPayment(listing([key]), p, rows, compares));
    }
    for (const id of [...cache.keys()]) if (!current.has(id)) cache.delete(id);
  };

  const merchants = new Map(MERCHANTS.map((m) => [m.id, m]));
  return {
    merchant: (id) => merchants.get(id),
    json: (row) => rows.texts.get(row) ?? JSON.stringify(row),
    listing,
    dataset,
    grow,
  };
}

/** An amount (integer minor units) as the variant `amount` serializes it. */
function serializeAmount(amount: number, as: Variants['amount']): number | string {
  if (as === 'string') return String(amount);
  if (as === 'decimal') return `${Math.floor(amount / 100)}.${String(amount % 100).padStart(2, '0')}`;
  return amount;
}
