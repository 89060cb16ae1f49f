/**
 * Helpers for the mock's self-tests: the probes' fetch wrapper and envelope helpers (mock/faults/probe.ts),
 * a raw-socket client, envelope walking.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { type EnvelopeJson, KEYS, type PaymentJson, page, type Res } from '../../mock/faults/probe.ts';
import { TARGET } from '../../mock/identity.ts';

export {
  type CallOptions,
  call,
  type EnvelopeJson,
  ids,
  KEYS,
  list,
  MERCHANTS,
  type PaymentJson,
  page,
  type Res,
} from '../../mock/faults/probe.ts';

export const ALL_KEYS: readonly string[] = Object.values(TARGET.keys);

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
    const socket = connect(port, TARGET.host);
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
  return `GET ${target} HTTP/1.1\r\nHost: ${TARGET.host}\r\n${auth}${extraHeaders}Connection: close\r\n\r\n`;
}
