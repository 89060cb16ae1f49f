/**
 * The seeded, deterministic data set: merchants and their payments per mode.
 * Same seed, same payments (ids, amounts, statuses, timestamps); nothing here depends on the clock.
 */
import { IDENTITY } from './identity.ts';
import type { Variants } from './variants.ts';

export const STATUSES = ['COMPLETED', 'PENDING', 'FAILED', 'REFUNDED', 'CANCELED'] as const;
export type Status = (typeof STATUSES)[number];
export type Mode = 'test' | 'live';
type MerchantRole = keyof typeof IDENTITY.merchants;

export interface Merchant {
  role: MerchantRole;
  id: string;
  /** A sandbox merchant exists only in the testing environment; a live merchant holds live and test data. */
  kind: 'sandbox' | 'live';
}

export interface Payment {
  id: string;
  merchantId: string;
  amount: number;
  currency: string;
  status: Status;
  createdAt: string;
}

export const MERCHANTS: readonly Merchant[] = [
  { role: 'sandbox', id: IDENTITY.merchants.sandbox, kind: 'sandbox' },
  { role: 'live', id: IDENTITY.merchants.live, kind: 'live' },
  { role: 'otherSandbox', id: IDENTITY.merchants.otherSandbox, kind: 'sandbox' },
];

/** One listing of a data set: whose, which mode, how many payments and (when not the usual shares) which statuses. */
interface ListingPlan {
  readonly role: MerchantRole;
  readonly mode: Mode;
  readonly count: number;
  /** Payments per status, summing to `count`; default: STATUS_SHARE's shares (statusQuota). */
  readonly statuses?: Readonly<Partial<Record<Status, number>>>;
}

/** Which merchant holds how many payments in which mode. The live merchant's test payments sit alongside its live ones (§5.5). */
export const LISTING_PLAN = [
  { role: 'sandbox', mode: 'test', count: 237 },
  { role: 'live', mode: 'live', count: 143 },
  { role: 'live', mode: 'test', count: 61 },
  { role: 'otherSandbox', mode: 'test', count: 40 },
] as const satisfies readonly ListingPlan[];

/** The data sets of the variant `data`: the default plan, a brand-new account, a listing larger than API_MAX_RECORDS. */
export const DATA_PLANS: Readonly<Record<Variants['data'], readonly ListingPlan[]>> = {
  default: LISTING_PLAN,
  'new-account': [
    { role: 'sandbox', mode: 'test', count: 7, statuses: { COMPLETED: 5, PENDING: 2 } },
    { role: 'live', mode: 'live', count: 0 },
    { role: 'live', mode: 'test', count: 3, statuses: { PENDING: 3 } },
    { role: 'otherSandbox', mode: 'test', count: 2, statuses: { COMPLETED: 2 } },
  ],
  large: [
    { role: 'sandbox', mode: 'test', count: 2500 },
    { role: 'live', mode: 'live', count: 143 },
    { role: 'live', mode: 'test', count: 61 },
    { role: 'otherSandbox', mode: 'test', count: 40 },
  ],
};

/** Share of each status in every listing, in percent. COMPLETED is the most common. */
export const STATUS_SHARE: Readonly<Record<Status, number>> = {
  COMPLETED: 45,
  PENDING: 20,
  FAILED: 15,
  REFUNDED: 12,
  CANCELED: 8,
};

/** Largest amount magnitude in digits: amounts run from 1 (1 digit) to 999999 (6 digits). */
export const MAX_AMOUNT_DIGITS = 6;
const CURRENCIES = ['EUR', 'EUR', 'EUR', 'USD', 'USD'] as const;
/** Timestamps start here and move forward by 1 s .. 2 h per payment, so every createdAt is distinct. */
const TIMELINE_START = Date.UTC(2025, 0, 6, 8, 0, 0);
const MAX_GAP_SECONDS = 7200;

export interface Dataset {
  seed: number;
  /** Payments per listing key (`merchantId:mode`), in creation order. */
  listings: ReadonlyMap<string, readonly Payment[]>;
}

export function merchantByRole(role: MerchantRole): Merchant {
  return MERCHANTS.find((m) => m.role === role) as Merchant;
}

export function listingKey(merchantId: string, mode: Mode): string {
  return `${merchantId}:${mode}`;
}

/** mulberry32: a tiny, well-known 32-bit PRNG. Deterministic for a given seed, good enough for test data. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Draw = (n: number) => number;

function pick<T>(items: readonly T[], draw: Draw): T {
  return items[draw(items.length)] as T;
}

function shuffle<T>(items: T[], draw: Draw): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = draw(i + 1);
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}

/** How many payments of each status a listing gets (largest remainder), so every status occurs and the shares hold for any seed. */
export function statusQuota(count: number): Record<Status, number> {
  const exact = STATUSES.map((s) => (count * STATUS_SHARE[s]) / 100);
  const counts = exact.map(Math.floor);
  let rest = count - counts.reduce((a, b) => a + b, 0);
  const byRemainder = exact.map((x, i) => ({ i, r: x - Math.floor(x) })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (const { i } of byRemainder) {
    if (rest-- <= 0) break;
    counts[i] = (counts[i] ?? 0) + 1;
  }
  return Object.fromEntries(STATUSES.map((s, i) => [s, counts[i] ?? 0])) as Record<Status, number>;
}

/**
 * A pool of amounts smaller than the listing, covering every magnitude (1..9, 10..99, ... 100000..999999).
 * Drawing from it yields many equal amounts; since the pool is smaller than the COMPLETED share, there
 * are always ties within COMPLETED too (pigeonhole).
 */
function amountPool(count: number, draw: Draw): number[] {
  const size = Math.max(12, Math.ceil(count / 4));
  const pool: number[] = [];
  for (let i = 0; i < size; i++) {
    const digits = (i % MAX_AMOUNT_DIGITS) + 1;
    const low = 10 ** (digits - 1);
    pool.push(low + draw(10 ** digits - low));
  }
  return pool;
}

const ID_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

function newId(mode: Mode, draw: Draw, taken: Set<string>): string {
  for (;;) {
    let id = `pay_${mode}_`;
    for (let i = 0; i < 14; i++) id += ID_ALPHABET[draw(ID_ALPHABET.length)];
    if (!taken.has(id)) {
      taken.add(id);
      return id;
    }
  }
}

/** The payments of a plan entry per status: its own counts, or the usual shares. */
function quotaOf(plan: ListingPlan): Record<Status, number> {
  const given = plan.statuses;
  if (!given) return statusQuota(plan.count);
  return Object.fromEntries(STATUSES.map((s) => [s, given[s] ?? 0])) as Record<Status, number>;
}

/** The data set of a plan (default: LISTING_PLAN). The same seed and plan always give the same payments. */
export function generateDataset(seed: number, plans: readonly ListingPlan[] = LISTING_PLAN): Dataset {
  const random = mulberry32(seed);
  const draw: Draw = (n) => Math.floor(random() * n);
  const count = plans.reduce((sum, l) => sum + l.count, 0);

  let clock = TIMELINE_START;
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    clock += (1 + draw(MAX_GAP_SECONDS)) * 1000;
    times.push(clock);
  }
  shuffle(times, draw);

  const taken = new Set<string>();
  const listings = new Map<string, readonly Payment[]>();
  let next = 0;
  for (const plan of plans) {
    const merchant = merchantByRole(plan.role);
    const pool = amountPool(plan.count, draw);
    const counts = quotaOf(plan);
    const statuses = shuffle(
      STATUSES.flatMap((s) => Array.from({ length: counts[s] }, () => s)),
      draw,
    );
    const payments: Payment[] = statuses.map((status) => ({
      id: newId(plan.mode, draw, taken),
      merchantId: merchant.id,
      amount: pick(pool, draw),
      currency: pick(CURRENCIES, draw),
      status,
      createdAt: new Date(times[next++] as number).toISOString(),
    }));
    payments.sort((a, b) => (a.createdAt < b.createdAt ? -1 : 1));
    listings.set(listingKey(merchant.id, plan.mode), payments);
  }
  return { seed, listings };
}

/**
 * New payments for a data set that grows (MockOptions.grow): each call gives one more payment for the listing named,
 * created after every payment so far, with an id no other payment has, an amount from the listing's range of
 * magnitudes and the statuses in turn, so that every status filter gains records too. Deterministic for a seed.
 */
export function paymentSource(dataset: Dataset): (key: string) => Payment {
  const random = mulberry32(dataset.seed ^ 0x5eed9a11);
  const draw: Draw = (n) => Math.floor(random() * n);
  const all = [...dataset.listings.values()].flat();
  const taken = new Set(all.map((p) => p.id));
  let clock = all.reduce((latest, p) => Math.max(latest, Date.parse(p.createdAt)), TIMELINE_START);
  let made = 0;
  return (key) => {
    const sep = key.lastIndexOf(':');
    const mode = key.slice(sep + 1) as Mode;
    clock += (1 + draw(60)) * 1000;
    const digits = 1 + draw(MAX_AMOUNT_DIGITS);
    const low = 10 ** (digits - 1);
    return {
      id: newId(mode, draw, taken),
      merchantId: key.slice(0, sep),
      amount: low + draw(10 ** digits - low),
      currency: pick(CURRENCIES, draw),
      status: STATUSES[made++ % STATUSES.length] as Status,
      createdAt: new Date(clock).toISOString(),
    };
  };
}
