/**
 * Faults of routing (§5.2): a path spelling the router serves without the auth middleware, a mode check that
 * reads the path differently from the lookup, or what a gateway says about paths no endpoint serves.
 */
import { listingKey, MERCHANTS } from '../data.ts';
import { MESSAGES, reject } from '../errors.ts';
import { LIST_PREFIX, LIST_SUFFIX, type Route, routeOf } from '../routes.ts';
import { type Fault, fault } from './fault.ts';

/** The endpoint a path names, if any. */
const endpoint = (path: string): Route | undefined => {
  const route = routeOf(path);
  return route.kind === 'unknown' ? undefined : route;
};
const collapse = (path: string) => path.replace(/\/{2,}/g, '/');
/** The merchant id segment of a list path, as sent (percent-encoding and all). */
const rawMerchantSegment = (path: string) => path.slice(LIST_PREFIX.length, path.length - LIST_SUFFIX.length);

/**
 * A router that resolves a spelling of a path to its endpoint (`normalise`: the path it serves, or undefined) while the
 * auth middleware, matching the raw path, lets it through: the classic path-confusion bypasses.
 */
function normalisingRouter(name: string, description: string, normalise: (path: string) => string | undefined): Fault {
  return fault(name, 'AUTH-MISSING', description, {
    route: (route, r) => {
      const plain = route.kind === 'unknown' ? normalise(r.path) : undefined;
      return plain === undefined ? undefined : endpoint(plain);
    },
    unguarded: (r) => r.route !== 'unknown' && normalise(r.path) !== undefined,
  });
}

export const PATH_FAULTS: readonly Fault[] = [
  fault(
    'path-trailing-slash-no-auth',
    'AUTH-MISSING',
    'the payments list spelled with a trailing slash is routed to the listing without the auth middleware',
    {
      route: (route, r) =>
        route.kind === 'unknown' && r.path.endsWith('/') ? endpoint(r.path.slice(0, -1)) : undefined,
      unguarded: (r) => r.route === 'list' && r.path.endsWith('/'),
    },
  ),
  fault(
    'path-double-slash-no-auth',
    'AUTH-MISSING',
    'the router collapses doubled slashes, the auth middleware matches the raw path: //merchant/status is served',
    {
      route: (route, r) => (route.kind === 'unknown' && r.path.includes('//') ? endpoint(collapse(r.path)) : undefined),
      unguarded: (r) => r.route !== 'unknown' && r.path.includes('//'),
    },
  ),
  normalisingRouter(
    'path-dot-segment-no-auth',
    'the router removes dot segments (RFC 3986 §5.2.4), the auth middleware matches the raw path: /merchant/./status is served without a key',
    (path) => (path.includes('/./') ? path.replace(/\/\.(?=\/)/g, '') : undefined),
  ),
  normalisingRouter(
    'path-matrix-param-no-auth',
    "the router drops a segment's ;parameters (a servlet container's path parameters, ;jsessionid=…), the auth middleware matches the raw path: /merchant/status;v=1 is served without a key",
    (path) => (path.includes(';') ? path.replace(/;[^/]*/g, '') : undefined),
  ),
  normalisingRouter(
    'path-extension-no-auth',
    'the router matches a path with a format extension as the path (suffix pattern matching: /payments.json is /payments), the auth middleware matches the raw path: served without a key',
    (path) => (/\.json$/.test(path) ? path.slice(0, -'.json'.length) : undefined),
  ),
  normalisingRouter(
    'path-case-list-no-auth',
    "a case-insensitive router behind a middleware that guards the payments list as written: the list's fixed segments in another case (/PAYMENTS/n1/merchant/…/payments) are served without a key (/merchant/status's are not)",
    (path) => {
      const lower = path
        .replace(/^\/payments\/n1\/merchant\//i, '/payments/n1/merchant/')
        .replace(/\/payments$/i, '/payments');
      return lower !== path && lower.startsWith('/payments/n1/merchant/') ? lower : undefined;
    },
  ),
  fault(
    'path-encoded-id-mode-bypass',
    'MODE-LIVE-SANDBOX',
    'the mode check compares the raw merchant id segment, the lookup decodes it: %6Dsb_… lets the live key in',
    {
      access: (a, r) => {
        if (a.merchant?.kind === 'sandbox' && a.mode === 'live' && rawMerchantSegment(r.path) !== a.merchantId)
          Object.assign(a, { failure: undefined, listing: [listingKey(a.merchant.id, 'test')] });
      },
    },
  ),
  fault(
    'merchant-id-case-mode-bypass',
    'MODE-LIVE-SANDBOX',
    'merchant ids are looked up case-insensitively, the mode check matches them exactly: MSB_… lets the live key in',
    {
      access: (a) => {
        if (a.merchant) return;
        const m = MERCHANTS.find((x) => x.id.toLowerCase() === a.merchantId.toLowerCase());
        if (!m) return;
        // The mode check ran on the id as written, which named no sandbox merchant: the lookup serves it anyway.
        Object.assign(a, {
          merchant: m,
          failure: undefined,
          listing: [listingKey(m.id, m.kind === 'sandbox' ? 'test' : a.mode)],
        });
      },
    },
  ),
  fault(
    'unknown-path-403',
    'ADV-UNKNOWN-PATH',
    'a path no endpoint serves gets 403 without a key (a gateway that says "missing authentication token")',
    { beforeAuth: (r) => (r.kind === 'unknown' ? reject(403, MESSAGES.missingToken) : undefined) },
  ),
];
