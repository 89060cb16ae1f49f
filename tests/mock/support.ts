/**
 * Helpers for the mock's self-tests and the faults' probes: a fetch wrapper and envelope helpers, a raw-socket
 * client, envelope walking.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { IDENTITY } from '../../mock/index.ts';

export const KEYS = IDENTITY.keys;
export const MERCHANTS = IDENTITY.merchants;
export const UNKNOWN_MERCHANT = 'msb_doesNotExist';
export const ALL_KEYS: readonly string[] = Object.values(KEYS);

/** The spec's path of a merchant's payments list, spelled here rather than taken from the mock's router. */
export const LIST_PREFIX = '/payments/n1/merchant/';
export const LIST_SUFFIX = '/payments';

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
  return `${LIST_PREFIX}${encodeURIComponent(merchantId)}${LIST_SUFFIX}${query === '' ? '' : `?${query}`}`;
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

/** All records of a query, walking pages of the given limit; asserts each envelope along the way. */
export async function walk(base: string, merchantId: string, query: string, limit: number, key: string = KEYS.test) {
  const records: PaymentJson[] = [];
  let total = Number.NaN;
  for (let offset = 0; ; offset += limit) {
    const sep = query === '' ? '' : '&';
    const env = await page(base, merchantId, `${query}${sep}offset=${offset}&limit=${limit}`, key);
    assertEnvelope(env, offset, limit);
    if (Number.isNaN(total)) total = env.total;
    assert.equal(env.total, total, 'total changes between pages');
    records.push(...env.data);
    if (offset + limit >= total) break;
  }
  return { records, total };
}

/** The envelope invariants of rules.md for the offset and limit a request sent. */
export function assertEnvelope(env: EnvelopeJson, offset: number, limit: number): void {
  assert.equal(env.success, true);
  assert.equal(typeof env.message, 'string');
  assert.ok(Array.isArray(env.data));
  assert.equal(env.offset, offset);
  assert.equal(env.limit, limit);
  assert.ok(Number.isInteger(env.total) && env.total >= 0);
  assert.equal(env.data.length, Math.max(0, Math.min(limit, env.total - offset)));
}

/** Whether a response (status line aside) contains any issued key, in body or headers. */
export function leaksKey(res: Res<unknown>): boolean {
  const headerText = [...res.headers].map(([k, v]) => `${k}: ${v}`).join('\n');
  return ALL_KEYS.some((k) => res.text.includes(k) || headerText.includes(k));
}

export interface RawResponse {
  status: number;
  head: string;
  body: string;
}

/** The bytes from the first final (non-1xx) response on. */
function finalResponse(text: string): string {
  let rest = text;
  while (/^HTTP\/1\.1 1\d\d /.test(rest) && rest.includes('\r\n\r\n')) rest = rest.slice(rest.indexOf('\r\n\r\n') + 4);
  return rest;
}

/** Sends raw bytes on a fresh connection; resolves with the first response (or status 0 if none came). */
export function raw(port: number, data: string | Buffer, timeoutMs = 3000): Promise<RawResponse> {
  return new Promise((resolve) => {
    const socket = connect(port, IDENTITY.host);
    const chunks: Buffer[] = [];
    let finished = false;
    const done = () => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      socket.destroy();
      const text = finalResponse(Buffer.concat(chunks).toString('latin1'));
      const split = text.indexOf('\r\n\r\n');
      const head = split < 0 ? text : text.slice(0, split);
      const match = /^HTTP\/1\.1 (\d{3})/.exec(head);
      const length = /\r\ncontent-length: *(\d+)/i.exec(head);
      const rest = split < 0 ? '' : text.slice(split + 4);
      resolve({ status: match ? Number(match[1]) : 0, head, body: length ? rest.slice(0, Number(length[1])) : rest });
    };
    const timer = setTimeout(done, timeoutMs);
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      const text = finalResponse(Buffer.concat(chunks).toString('latin1'));
      const split = text.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: *(\d+)/i.exec(text);
      if (split >= 0 && length && text.length >= split + 4 + Number(length[1])) done();
    });
    socket.on('error', done);
    socket.on('close', done);
    socket.write(data);
  });
}

/** A GET request line and headers for raw(), with the test key unless told otherwise. */
export function rawGet(target: string, extraHeaders = '', key: string | null = KEYS.test): string {
  const auth = key === null ? '' : `Authorization: Bearer ${key}\r\n`;
  return `GET ${target} HTTP/1.1\r\nHost: ${IDENTITY.host}\r\n${auth}${extraHeaders}Connection: close\r\n\r\n`;
}
