/**
 * Request-target parsing: which endpoint a path names, and the raw query string.
 * Never throws: malformed percent-encoding, absolute-form or `*` targets simply match no endpoint.
 */
import type { RequestFacts } from './hooks.ts';

/** The endpoint a path names; its kinds are hooks.ts's `RouteKind`. A list of another collection names it. */
export type Route =
  | { kind: 'status' }
  | { kind: 'list'; merchantId: string; collection?: CollectionName }
  | { kind: 'unknown' };

/** Where faults hook into routing (server.ts asks them after parsing the target). */
export interface RouteHooks {
  /** The endpoint a faulty router finds for the path (undefined = the clean router's). */
  route?(route: Route, request: RequestFacts): Route | undefined;
  /** The method a faulty router dispatches the request as (undefined = as sent). */
  method?(method: string, request: RequestFacts): string | undefined;
}

/** The path prefix the API is served under, per the variant `prefix`. */
export const API_PREFIX = { none: '', api: '/api/v2' } as const;

const STATUS_PATH = '/merchant/status';
export const LIST_PREFIX = '/payments/n1/merchant/';
export const LIST_SUFFIX = '/payments';
/** The collections the mock serves beside payments (collections.ts), each a list of a merchant: its path's end. */
export const COLLECTION_SUFFIXES = { refunds: '/refunds' } as const;
export type CollectionName = keyof typeof COLLECTION_SUFFIXES;

/** The path segment decoded, or undefined when its percent-encoding is malformed. */
function decodeSegment(raw: string): string | undefined {
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

/** A request-target split into its path (as sent), the endpoint that path names, and the raw query. */
interface RequestTarget {
  path: string;
  route: Route;
  search: string;
}

/**
 * The request-target with the API's path prefix taken off (`/api/v2/merchant/status?x` → `/merchant/status?x`), or
 * undefined when its path is not under the prefix. With no prefix, the target as sent.
 */
export function withinPrefix(url: string, prefix: string): string | undefined {
  if (prefix === '') return url;
  if (!url.startsWith(prefix)) return undefined;
  const rest = url.slice(prefix.length);
  return rest === '' || rest.startsWith('/') || rest.startsWith('?') ? rest : undefined;
}

export function parseTarget(url: string): RequestTarget {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const search = q < 0 ? '' : url.slice(q + 1);
  return { path, route: routeOf(path), search };
}

/** The list suffixes the mock serves: payments', then each other collection's. */
const LISTS: ReadonlyArray<[string, CollectionName | undefined]> = [
  [LIST_SUFFIX, undefined],
  ...(Object.entries(COLLECTION_SUFFIXES) as Array<[CollectionName, string]>).map(
    ([name, suffix]): [string, CollectionName] => [suffix, name],
  ),
];

/**
 * The merchant segment of a list path as sent (between the prefix and any list's suffix, slashes and all: what a
 * faulty router may take for an id), raw and decoded where it decodes, with the collection the suffix names.
 */
export function listSegment(
  path: string,
): { raw: string; decoded: string; collection: CollectionName | undefined } | undefined {
  for (const [suffix, collection] of LISTS) {
    if (path.length <= LIST_PREFIX.length + suffix.length || !path.startsWith(LIST_PREFIX) || !path.endsWith(suffix))
      continue;
    const raw = path.slice(LIST_PREFIX.length, path.length - suffix.length);
    // An undecodable id names no merchant; keeping it raw leads to "merchant not found".
    return { raw, decoded: decodeSegment(raw) ?? raw, collection };
  }
  return undefined;
}

/** The endpoint a path names. */
export function routeOf(path: string): Route {
  if (path === STATUS_PATH) return { kind: 'status' };
  const segment = listSegment(path);
  if (!segment || segment.raw.includes('/')) return { kind: 'unknown' };
  const { decoded: merchantId, collection } = segment;
  return collection ? { kind: 'list', merchantId, collection } : { kind: 'list', merchantId };
}
