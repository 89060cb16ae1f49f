/**
 * The example collection the mock serves beside payments — an example of a collection a user declares
 * (examples/collections.json, examples/openapi.yaml), not the vendor's: the refunds of a merchant at
 * /payments/n1/merchant/{merchantId}/refunds, merchant-scoped in both modes like payments (routes.ts routes it; the
 * same pass authenticates and authorizes it), filtered by `reason`, sorted by `createdAt` (an instant, written with
 * varying UTC offsets, so that only a comparison of instants orders it) and by `customer` (by code point), with a
 * default limit of 20 and a maximum of 50. Seeded like the payments: the same seed, the same refunds. Its data does
 * not grow (`--grow` adds payments only).
 */
import { type Dataset, listingKey, MERCHANTS, mulberry32 } from './data.ts';
import { MESSAGES } from './errors.ts';
import type { ParsedQuery, QueryShape } from './params.ts';
import type { ListingViews, Order, Row } from './store.ts';
import type { Variants } from './variants.ts';

const REFUND_REASONS = [
  'requested_by_customer',
  'duplicate',
  'fraudulent',
  'product_not_received',
  'expired_uncaptured_charge',
] as const;
const REFUND_STATUSES = ['succeeded', 'pending', 'failed'] as const;
/** Names that order differently by code point and by a locale's collation (case, accents), with repeats: ties. */
const CUSTOMERS = [
  'Ada Lovelace',
  'ada lovelace',
  'Álvaro Díaz',
  'Ängel Berg',
  'Bob Stone',
  'bob stone',
  'Björk Guðmundsdóttir',
  'Çelik Ltd',
  'Émile Zola',
  'émile zola',
  'Mia Wong',
  'Ølby ApS',
  'Ünal Kaya',
  'Zed Park',
  'Zoë Quinn',
  'zoe quinn',
  '李雷',
] as const;
/** The UTC offsets createdAt is written with, in turn: the same instant reads differently under each. */
const OFFSETS_MINUTES = [0, 120, -300, 330] as const;

export const REFUND_LIMITS = { defaultLimit: 20, maxLimit: 50 };
const REFUND_SORT_FIELDS = ['createdAt', 'customer'] as const;
type SortField = (typeof REFUND_SORT_FIELDS)[number];

/** The query of the refunds list: filter[reason], sort by createdAt or customer, either way. */
export const REFUNDS_SHAPE: QueryShape = {
  filterParam: 'filter[reason]',
  filterValues: REFUND_REASONS,
  sorts: Object.fromEntries(
    REFUND_SORT_FIELDS.flatMap((field) => [
      [field, { sort: 'amount', field }],
      [`-${field}`, { sort: '-amount', field }],
    ]),
  ),
  messages: {
    invalidFilter: MESSAGES.invalidFilter,
    unknownFilter: MESSAGES.unknownFilter,
    invalidSort: MESSAGES.invalidFieldSort,
    invalidLimit: MESSAGES.invalidCollectionLimit,
    limitTooLarge: MESSAGES.collectionLimitTooLarge,
  },
};

interface Refund {
  id: string;
  merchantId: string;
  paymentId: string;
  amount: number;
  currency: string;
  reason: (typeof REFUND_REASONS)[number];
  status: (typeof REFUND_STATUSES)[number];
  customer: string;
  /** Milliseconds since the epoch; written with the offset below. */
  instant: number;
  offsetMinutes: number;
}

/** Refunds per listing (merchant role and mode), per the variant `data`. */
const REFUND_PLANS: Readonly<
  Record<Variants['data'], ReadonlyArray<[role: string, mode: 'test' | 'live', n: number]>>
> = {
  default: [
    ['sandbox', 'test', 130],
    ['live', 'live', 45],
    ['live', 'test', 25],
    ['otherSandbox', 'test', 20],
  ],
  'new-account': [
    ['sandbox', 'test', 3],
    ['live', 'live', 0],
    ['live', 'test', 1],
    ['otherSandbox', 'test', 1],
  ],
  large: [
    ['sandbox', 'test', 700],
    ['live', 'live', 45],
    ['live', 'test', 25],
    ['otherSandbox', 'test', 20],
  ],
};

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** The refunds of a data set (each refunds one of its listing's payments), deterministic for the seed. */
function generateRefunds(dataset: Dataset, plan: Variants['data']): Map<string, Refund[]> {
  const random = mulberry32(dataset.seed ^ 0x2ef0d5);
  const draw = (n: number) => Math.floor(random() * n);
  const out = new Map<string, Refund[]>();
  const taken = new Set<string>();
  let clock = Date.UTC(2025, 1, 3, 9, 0, 0);
  for (const [role, mode, n] of REFUND_PLANS[plan]) {
    const merchant = MERCHANTS.find((m) => m.role === role);
    if (!merchant) continue;
    const key = listingKey(merchant.id, mode);
    const payments = dataset.listings.get(key) ?? [];
    const refunds: Refund[] = [];
    for (let i = 0; i < n; i++) {
      let id = '';
      while (id === '' || taken.has(id))
        id = `re_${mode}_${Array.from({ length: 12 }, () => ALPHABET[draw(36)]).join('')}`;
      taken.add(id);
      // One refund in eight at the same instant as the one before: ties of createdAt.
      if (draw(8) !== 0) clock += (1 + draw(5400)) * 1000;
      refunds.push({
        id,
        merchantId: merchant.id,
        paymentId: payments[draw(Math.max(1, payments.length))]?.id ?? `pay_${mode}_none`,
        amount: 100 + draw(50_000),
        currency: draw(3) === 0 ? 'USD' : 'EUR',
        reason: REFUND_REASONS[draw(REFUND_REASONS.length)] as Refund['reason'],
        status: REFUND_STATUSES[draw(6) === 0 ? 2 : draw(5) === 0 ? 1 : 0] as Refund['status'],
        customer: CUSTOMERS[draw(CUSTOMERS.length)] as string,
        instant: clock,
        offsetMinutes: OFFSETS_MINUTES[draw(OFFSETS_MINUTES.length)] as number,
      });
    }
    out.set(key, refunds);
  }
  return out;
}

/** An instant in RFC 3339 with a UTC offset (`2025-02-03T11:00:00+02:00`; `Z` for UTC). */
function written(instant: number, offsetMinutes: number): string {
  const local = new Date(instant + offsetMinutes * 60_000).toISOString().slice(0, 19);
  if (offsetMinutes === 0) return `${local}Z`;
  const sign = offsetMinutes < 0 ? '-' : '+';
  const m = Math.abs(offsetMinutes);
  return `${local}${sign}${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

/** Code point order (not UTF-16 code units): what `collation: codepoint` promises. */
const byCodePoint = (a: string, b: string) => {
  const x = Array.from(a, (c) => c.codePointAt(0) as number);
  const y = Array.from(b, (c) => c.codePointAt(0) as number);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
  return x.length - y.length;
};

export interface CollectionStore {
  /** The lists of a union of listings (keys `merchantId:mode`) sorted by `field` (none: the unsorted order). */
  listing(keys: readonly string[], query: Pick<ParsedQuery, 'sortField'>): ListingViews;
}

/** The refunds store: every list computed on first use per union of listings and sort field, then kept. */
export function buildRefundStore(dataset: Dataset, variants: Variants): CollectionStore {
  const refunds = generateRefunds(dataset, variants.data);
  const integer = new Map<Refund, number>();
  // ids=integer: 1001, 1002, … in creation order, as the payments are numbered: a refund and a payment share ids.
  for (const r of [...refunds.values()].flat().sort((a, b) => a.instant - b.instant || byCodePoint(a.id, b.id))) {
    integer.set(r, 1001 + integer.size);
  }
  const rows = new Map<Refund, Row>();
  const rowOf = (r: Refund): Row => {
    let row = rows.get(r);
    if (!row) {
      const amount =
        variants.amount === 'number'
          ? r.amount
          : variants.amount === 'string'
            ? String(r.amount)
            : `${Math.floor(r.amount / 100)}.${String(r.amount % 100).padStart(2, '0')}`;
      const base = {
        id: variants.ids === 'integer' ? (integer.get(r) as number) : r.id,
        merchantId: r.merchantId,
        paymentId: r.paymentId,
        amount,
        currency: r.currency,
        reason: r.reason,
        status: r.status,
        customer: r.customer,
        createdAt: written(r.instant, r.offsetMinutes),
      };
      // The store's rows are payments' type: a refund row is served as it is (render stringifies it).
      row = (variants.extras === 'on' ? { ...base, note: `refund of ${r.paymentId}` } : base) as unknown as Row;
      rows.set(r, row);
    }
    return row;
  };
  const tie = (a: Refund, b: Refund) => (variants.ties === 'id' ? 1 : -1) * byCodePoint(a.id, b.id);
  const compares: Record<SortField, (a: Refund, b: Refund) => number> = {
    createdAt: (a, b) => a.instant - b.instant,
    customer: (a, b) => byCodePoint(a.customer, b.customer),
  };
  const unsorted = (a: Refund, b: Refund) =>
    (variants.unsorted === 'created' ? 1 : -1) * (a.instant - b.instant) || byCodePoint(a.id, b.id);
  const cache = new Map<string, ListingViews>();
  return {
    listing(keys, query) {
      const field: SortField = (query.sortField as SortField | undefined) ?? 'createdAt';
      const id = `${[...keys].sort().join('+')}|${field}`;
      const found = cache.get(id);
      if (found) return found;
      const all = keys.flatMap((k) => refunds.get(k) ?? []);
      const compare = compares[field];
      const views = {} as Record<string, Record<Order, readonly Row[]>>;
      const totals = {} as Record<string, number>;
      for (const filter of ['all', 'none', ...REFUND_REASONS]) {
        const selected = filter === 'all' ? all : all.filter((r) => r.reason === filter);
        const list = (c: (a: Refund, b: Refund) => number) => Object.freeze([...selected].sort(c).map(rowOf));
        views[filter] = {
          unsorted: list(unsorted),
          asc: list((a, b) => compare(a, b) || tie(a, b)),
          desc: list((a, b) => compare(b, a) || tie(a, b)),
        };
        totals[filter] = filter === 'none' ? 0 : selected.length;
      }
      views.none = { unsorted: [], asc: [], desc: [] };
      // Keyed by reason where payments' are keyed by status: the query reads them alike (runQuery).
      const made = { views, totals } as unknown as ListingViews;
      cache.set(id, made);
      return made;
    },
  };
}
