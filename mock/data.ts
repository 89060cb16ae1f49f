/**
 * The seeded, deterministic data set: merchants and their payments per mode.
 * Same seed, same payments (ids, amounts, statuses, timestamps); nothing here depends on the clock.
 */
import { IDENTITY } from './identity.ts';

export const STATUSES = ['COMPLETED', 'PENDING', 'FAILED', 'REFUNDED', 'CANCELED'] as const;
export type Status = (typeof STATUSES)[number];
export type Mode = 'test' | 'live';
export type MerchantRole = keyof typeof IDENTITY.merchants;

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

/** Which merchant holds how many payments in which mode. The live merchant's test payments sit alongside its live ones (§5.5). */
export const LISTING_PLAN = [
  { role: 'sandbox', mode: 'test', count: 237 },
  { role: 'live', mode: 'live', count: 143 },
  { role: 'live', mode: 'test', count: 61 },
  { role: 'otherSandbox', mode: 'test', count: 40 },
] as const satisfies readonly { role: MerchantRole; mode: Mode; count: number }[];

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

export function generateDataset(seed: number): Dataset {
  const random = mulberry32(seed);
  const draw: Draw = (n) => Math.floor(random() * n);
  const count = LISTING_PLAN.reduce((sum, l) => sum + l.count, 0);

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
  for (const plan of LISTING_PLAN) {
    const merchant = merchantByRole(plan.role);
    const pool = amountPool(plan.count, draw);
    const counts = statusQuota(plan.count);
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
