/**
 * The spec's endpoints as a request names them, and the headers each one's table documents (§4.1, §4.2). Every
 * request carries every documented header of its endpoint (reading: a target may refuse a request that lacks one
 * with a 4xx, so no check may depend on leaving one out); a check that varies one header keeps the others.
 */

/** The methods the suite may send: the safe ones (RFC 9110 §9.2.1). It never sends anything else. */
const SAFE_METHODS = ['GET', 'HEAD', 'OPTIONS'] as const;
export type SafeMethod = (typeof SAFE_METHODS)[number];
export const isSafeMethod = (m: string): m is SafeMethod => (SAFE_METHODS as readonly string[]).includes(m);

export type EndpointKind = 'status' | 'list' | 'other';

/** The path with its spellings folded: percent-decoded where decodable, lower case, slashes collapsed, no trailing one. */
function folded(path: string): string {
  let p = path.split('?')[0] as string;
  try {
    p = decodeURIComponent(p);
  } catch {
    // a stray %: keep it as sent
  }
  return p
    .toLowerCase()
    .replace(/\/{2,}/g, '/')
    .replace(/\/+$/, '');
}

/**
 * Which endpoint of the spec a path (relative to the base URL) spells: `/merchant/status` and its spellings (a
 * trailing slash, another case, an encoded letter) are the status endpoint, `/payments/n1/merchant/{id}/payments`
 * the list; anything else is a path the spec does not show.
 */
export function endpointOf(path: string): EndpointKind {
  const p = folded(path);
  if (p === '/merchant/status') return 'status';
  if (/^\/payments\/n1\/merchant\/[^/]+\/payments$/.test(p)) return 'list';
  return 'other';
}

/** The headers besides Authorization that the spec's table lists for each endpoint (header names in lower case). */
const DOCUMENTED_HEADERS: Readonly<Record<EndpointKind, Readonly<Record<string, string>>>> = {
  // §4.1: "Request headers: Authorization: Bearer <API_KEY>, Content-Type: application/json".
  status: { 'content-type': 'application/json' },
  // §4.2: "Request headers: Authorization: Bearer <API_KEY>".
  list: {},
  other: {},
};

/** The documented headers of the endpoint a path spells. */
export const documentedHeaders = (path: string): Readonly<Record<string, string>> =>
  DOCUMENTED_HEADERS[endpointOf(path)];
