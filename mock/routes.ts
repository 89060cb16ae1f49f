/**
 * Request-target parsing: which endpoint a path names, and the raw query string.
 * Never throws: malformed percent-encoding, absolute-form or `*` targets simply match no endpoint.
 */

export type Route = { kind: 'status' } | { kind: 'list'; merchantId: string } | { kind: 'unknown' };
export type RouteKind = Route['kind'];

export const STATUS_PATH = '/merchant/status';
const LIST_PREFIX = '/payments/n1/merchant/';
const LIST_SUFFIX = '/payments';

/** The path segment decoded, or undefined when its percent-encoding is malformed. */
function decodeSegment(raw: string): string | undefined {
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

export function listPath(merchantId: string): string {
  return `${LIST_PREFIX}${encodeURIComponent(merchantId)}${LIST_SUFFIX}`;
}

export function parseTarget(url: string): { route: Route; search: string } {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const search = q < 0 ? '' : url.slice(q + 1);
  if (path === STATUS_PATH) return { route: { kind: 'status' }, search };
  if (
    path.length > LIST_PREFIX.length + LIST_SUFFIX.length &&
    path.startsWith(LIST_PREFIX) &&
    path.endsWith(LIST_SUFFIX)
  ) {
    const raw = path.slice(LIST_PREFIX.length, path.length - LIST_SUFFIX.length);
    if (!raw.includes('/')) {
      // An undecodable id names no merchant; keeping it raw leads to "merchant not found".
      return { route: { kind: 'list', merchantId: decodeSegment(raw) ?? raw }, search };
    }
  }
  return { route: { kind: 'unknown' }, search };
}
