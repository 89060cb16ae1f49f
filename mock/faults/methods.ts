/**
 * Faults of the methods besides GET (reading "Methods"): a HEAD or OPTIONS route registered beside the guarded GET
 * one, so that one check of the GET path (the key, the mode, the permission) is not on it, or a helper of that
 * route that gives the key back.
 */
import { listingKey } from '../data.ts';
import { type Fault, fault } from './fault.ts';

/** Header values Node can send; an unsendable value would make the response itself fail. */
const HEADER_SAFE = /^[\x21-\x7e]+$/;
/** A request to an endpoint of the spec (not to a path none serves). */
const onEndpoint = (r: { route: string }) => r.route !== 'unknown';

export const METHOD_FAULTS: readonly Fault[] = [
  fault(
    'head-no-auth',
    'AUTH-MISSING',
    'HEAD is routed around the auth middleware (a HEAD route beside the guarded GET one): served without a key',
    { unguarded: (r) => r.method === 'HEAD' && onEndpoint(r) },
  ),
  fault(
    'head-mode-unchecked',
    'MODE-LIVE-SANDBOX',
    "HEAD skips the mode check: the live key's HEAD on a sandbox merchant answers 200 (GET still 404)",
    {
      access: (a, r) => {
        if (r.method === 'HEAD' && a.merchant?.kind === 'sandbox' && a.mode === 'live')
          Object.assign(a, { failure: undefined, listing: [listingKey(a.merchant.id, 'test')] });
      },
    },
  ),
  fault(
    'head-permission-unchecked',
    'AUTH-FORBIDDEN',
    "HEAD skips the permission check: the restricted key's HEAD on the payments list answers 200 (GET still 403)",
    {
      permission: (check, r) => {
        if (r.method === 'HEAD') check.failure = undefined;
      },
    },
  ),
  fault(
    'options-get-handler',
    'AUTH-MISSING',
    'OPTIONS is dispatched to the GET handler without the auth middleware: a listing without a key',
    {
      method: (m, r) => (m === 'OPTIONS' && onEndpoint(r) ? 'GET' : undefined),
      unguarded: (r) => r.method === 'OPTIONS' && onEndpoint(r),
    },
  ),
  fault(
    'head-key-echo',
    'KEY-SECRET',
    'HEAD answers carry the presented key in X-Authenticated-Key (a header the GET path strips with its body)',
    {
      headers: (h, f) => {
        if (f.method === 'HEAD' && f.presented !== undefined && HEADER_SAFE.test(f.presented))
          h['X-Authenticated-Key'] = f.presented;
      },
    },
  ),
  fault(
    'options-key-echo',
    'KEY-SECRET',
    "OPTIONS answers reflect the request's Authorization header (a CORS debugging helper): X-Reflected-Authorization",
    {
      headers: (h, f) => {
        if (f.method === 'OPTIONS' && f.presented !== undefined && HEADER_SAFE.test(f.presented))
          h['X-Reflected-Authorization'] = `Bearer ${f.presented}`;
      },
    },
  ),
];
