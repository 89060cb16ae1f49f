/**
 * What a fault's probe uses: HTTP calls to a clean and a faulty mock, and envelope helpers. A probe sends the
 * same request to both and asserts that the faulty answer deviates exactly as the fault describes, and that a
 * neighbouring request stays clean. Probes run in the mock's self-tests (tests/mock/faults.test.ts); the mock
 * itself never calls them. The self-tests reuse these helpers (tests/mock/support.ts).
 */
import assert from 'node:assert/strict';
import { TARGET } from '../identity.ts';
import type { MockEnv } from '../index.ts';
import { listPath } from '../routes.ts';

export const KEYS = TARGET.keys;
export const MERCHANTS = TARGET.merchants;
export const UNKNOWN_MERCHANT = 'msb_doesNotExist';

export interface PaymentJson {
  id: string;
  merchantId: string;
  amount: number | string;
  currency: string;
  status: string;
  createdAt: string;
  description?: string;
}

export interface EnvelopeJson {
  success: unknown;
  message?: unknown;
  data: PaymentJson[];
  offset: number;
  limit: number;
  total: number;
  [extra: string]: unknown;
}

export interface Res<T = EnvelopeJson> {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  body: T;
}

export interface CallOptions {
  /** The key sent as `Bearer <key>`; null sends no Authorization header. Default: the test key. */
  key?: string | null;
  /** The raw Authorization header (overrides key). */
  auth?: string;
  method?: string;
  body?: string;
  headers?: Record<string, string>;
}

export async function call<T = EnvelopeJson>(base: string, path: string, opts: CallOptions = {}): Promise<Res<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  const key = opts.key === undefined ? KEYS.test : opts.key;
  if (opts.auth !== undefined) headers.Authorization = opts.auth;
  else if (key !== null) headers.Authorization = `Bearer ${key}`;
  const res = await fetch(base + path, { method: opts.method ?? 'GET', headers, body: opts.body });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, text, body: body as T };
}

/** Path of a merchant's payments list with a query string. */
export function list(merchantId: string, query = ''): string {
  return listPath(merchantId) + (query === '' ? '' : `?${query}`);
}

/** GET a listing and assert 200. */
export async function page(base: string, merchantId: string, query = '', key: string = KEYS.test) {
  const res = await call(base, list(merchantId, query), { key });
  assert.equal(res.status, 200, `expected 200 for ${query}, got ${res.status}: ${res.text}`);
  return res.body;
}

export const ids = (records: readonly PaymentJson[]) => records.map((r) => r.id);
export const amounts = (env: EnvelopeJson) => env.data.map((p) => Number(p.amount));
export const statuses = (env: EnvelopeJson) => new Set(env.data.map((p) => p.status));

/** Whether a list is ordered (ascending with dir 1, descending with -1); equal neighbours are fine. */
export function isSorted(xs: readonly (number | string)[], dir: 1 | -1 = 1): boolean {
  return xs.every((x, i) => {
    const prev = xs[i - 1] as typeof x;
    return i === 0 || dir * (x > prev ? 1 : x < prev ? -1 : 0) >= 0;
  });
}

/** A running mock as a probe sees it. */
export interface ProbeTarget {
  url: string;
  env: MockEnv;
}

export interface ProbeContext {
  clean: ProbeTarget;
  faulty: ProbeTarget;
  /** The same request to the clean (c) and the faulty (f) mock; key null sends none, auth is a raw header. */
  both(path: string, key?: string | null, auth?: string): Promise<{ c: Res; f: Res }>;
}

/** Shows that the faulty mock deviates from the clean one as the fault describes, and only there. */
export type Probe = (p: ProbeContext) => Promise<void>;

export function probeContext(clean: ProbeTarget, faulty: ProbeTarget): ProbeContext {
  return {
    clean,
    faulty,
    async both(path, key = KEYS.test, auth) {
      const [c, f] = await Promise.all([call(clean.url, path, { key, auth }), call(faulty.url, path, { key, auth })]);
      return { c, f };
    },
  };
}
