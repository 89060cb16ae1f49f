/**
 * The headers the one client (http.ts) sends besides Authorization — Accept, the endpoint's documented ones, a
 * request's own and the door checks' extra ones, documented ones left out — what HTTP allows in them, and how long an
 * answer says to wait before asking again.
 */
import { documentedHeaders } from '../model/endpoints.ts';
import type { ExtraInputs } from '../model/exchange.ts';
import { rateSignalOf } from './pace.ts';

/**
 * The headers of a request besides Authorization: Accept, every header the spec documents for the endpoint the path
 * spells (Content-Type on /merchant/status, §4.1), then the request's own.
 */
export function requestHeaders(
  path: string,
  own: Record<string, string> = {},
  extra?: ExtraInputs,
): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json', ...documentedHeaders(path) };
  const plain = (extra?.headers ?? []).flatMap(({ name, value }) =>
    value.every((p) => typeof p === 'string') ? [[name, value.join('')] as const] : [],
  );
  for (const [name, value] of [...Object.entries(own), ...plain]) {
    const lower = name.toLowerCase();
    if (lower === 'authorization') throw new Error('a credential goes in `auth`, never in `headers`');
    if (!HEADER_NAME.test(name) || !HEADER_VALUE.test(value))
      throw new Error(`the header ${name} is not a valid HTTP header`);
    headers[lower] = value;
  }
  for (const name of extra?.omit ?? []) delete headers[name.toLowerCase()];
  return headers;
}

/** What HTTP allows in a field value (RFC 9110 §5.5: visible ASCII, spaces, tabs, obs-text) and in a field name. */
export const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
export const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * How long to wait before asking again, when an answer says "come back later" (RFC 9110 §15.6.4): a 429 (its pause is
 * the ledger's), or a 503 with a Retry-After; undefined for any other answer.
 */
export function comeBackLater(res: { status: number; headers: Record<string, string> }): number | undefined {
  if (res.status !== 429 && res.status !== 503) return undefined;
  const retry = rateSignalOf(res.status, res.headers).retryAfterMs;
  if (res.status === 503) return retry;
  return retry ?? 0;
}
