/**
 * Faults behind inputs the spec does not document (reading "Inputs the spec does not document"), and of what an answer
 * carries where the suite once read nothing: a credential taken from another header or from a cookie the server itself
 * set, an identity taken from a query parameter, a key written as a list, a merchant id with a control character, a
 * page in an encoded header or in a 503, and the regressions of /merchant/status (no Content-Type, a key of the right
 * form) and of the live key's sorted deep query. Each acts only on an input no documented request carries.
 */
import { createHash } from 'node:crypto';
import type { KeyRecord } from '../auth.ts';
import { listingKey, MERCHANTS } from '../data.ts';
import { MESSAGES, reject } from '../errors.ts';
import type { RequestFacts } from '../hooks.ts';
import { IDENTITY } from '../identity.ts';
import { csvOf, weightOf } from '../negotiation.ts';
import type { Row } from '../store.ts';
import { type Fault, fault } from './fault.ts';

/** A request header's value, as the mock read it (the first of repeated ones). */
const header = (r: RequestFacts, name: string): string | undefined => {
  const v = r.headers?.[name];
  return Array.isArray(v) ? v[0] : v;
};
/** The value of a query parameter in a raw query string. */
const param = (search: string, name: string) => (search === '' ? null : new URLSearchParams(search).get(name));

/** The session a key is handed (a cookie's value): derived from the key, never holding it. */
const sessionOf = (k: KeyRecord) =>
  `s_${createHash('sha256').update(`session:${k.secret}`).digest('base64url').slice(0, 32)}`;

/** The last page served to anyone (state shared between requests, as a debugging aid keeps it). */
let lastServed: readonly Row[] = [];
/** Requests without Authorization seen by the load shedder. */
let unauthenticated = 0;
const ISSUED: readonly string[] = Object.values(IDENTITY.keys);
/** Whether a character is a C0 control character or DEL. */
const isControl = (ch: string) => ch.charCodeAt(0) < 0x20 || ch === '\u007f';
const withoutControls = (s: string) => [...s].filter((ch) => !isControl(ch)).join('');

/**
 * A gateway that authenticates a request without Authorization by a header of its own (`name`, the key bare or after
 * Bearer), which it names (in Access-Control-Allow-Headers, or in Vary) on the answers `names` picks.
 */
function namedCredentialHeader(
  faultName: string,
  description: string,
  name: string,
  names: (f: RequestFacts, status: number) => boolean,
  via: 'Access-Control-Allow-Headers' | 'Vary' = 'Access-Control-Allow-Headers',
): Fault {
  return fault(faultName, 'AUTH-MISSING', description, {
    headers: (h, f, status) => {
      if (names(f, status)) h[via] = via === 'Vary' ? `Authorization, ${name}` : `Authorization, Content-Type, ${name}`;
    },
    alternateKey: (r, keys) => {
      const v = header(r, name.toLowerCase())?.replace(/^Bearer\s+/i, '');
      return keys.find((k) => k.secret === v);
    },
  });
}

/** The entity tag a conditional layer hands out for a request's target (its path and query, whoever asked). */
const tagOf = (f: RequestFacts) => `"${createHash('sha1').update(`${f.path}?${f.search}`).digest('hex').slice(0, 20)}"`;
const conditional = (f: RequestFacts) => f.method === 'GET' || f.method === 'HEAD';
/** Whether a request prefers CSV to JSON (its Accept). */
const prefersCsv = (f: RequestFacts) => {
  const accept = header(f, 'accept') ?? '';
  return weightOf(accept, 'text/csv') > weightOf(accept, 'application/json');
};

/** A CSV export that forgets the cap where `wants` says the request asks for it: every record from its offset. */
function csvExport(name: string, description: string, wants: (f: RequestFacts) => boolean): Fault {
  return fault(name, 'LIM-CAP', description, {
    slice: (slice, f) => {
      if (wants(f.request)) slice.end = Number.MAX_SAFE_INTEGER;
    },
    text: (body, status, f) => (status === 200 && f.route === 'list' && wants(f) ? csvOf(body) : undefined),
    headers: (h, f, status) => {
      if (status === 200 && f.route === 'list' && wants(f)) h['Content-Type'] = 'text/csv; charset=utf-8';
    },
  });
}

/** The mode check skipped where `skipped` says (the request, its offset): the live key lists a sandbox merchant. */
function liveOnSandboxWhen(name: string, description: string, skipped: (r: RequestFacts, offset: number) => boolean) {
  return fault(name, 'MODE-LIVE-SANDBOX', description, {
    access: (a, r) => {
      if (a.merchant?.kind !== 'sandbox' || a.mode !== 'live' || !skipped(r, Number(param(r.search, 'offset') ?? 0)))
        return;
      Object.assign(a, { failure: undefined, listing: [listingKey(a.merchant.id, 'test')] });
    },
  });
}

export const DOOR_FAULTS: readonly Fault[] = [
  fault(
    'key-in-query-param',
    'AUTH-MISSING',
    'a request without Authorization is authenticated by the key in its query string as access_token (RFC 6750 §2.3: bearer-token middleware such as passport-http-bearer reads it by default)',
    { alternateKey: (r, keys) => keys.find((k) => k.secret === param(r.search, 'access_token')) },
  ),
  fault(
    'key-in-x-api-key',
    'AUTH-MISSING',
    'a request without Authorization is authenticated by an X-Api-Key header (the middleware of an older API version, still mounted)',
    { alternateKey: (r, keys) => keys.find((k) => k.secret === header(r, 'x-api-key')) },
  ),
  namedCredentialHeader(
    'advertised-credential-header',
    'a gateway names its own credential header in every CORS answer (Access-Control-Allow-Headers: …, X-Gateway-Credential) and authenticates a request without Authorization by it',
    'X-Gateway-Credential',
    () => true,
  ),
  namedCredentialHeader(
    'preflight-credential-header',
    'a gateway names its own credential header only where CORS puts the list, in the answer to a pre-flight (OPTIONS with Access-Control-Request-Method: …, X-Partner-Token), and authenticates a request without Authorization by it',
    'X-Partner-Token',
    (f) => f.method === 'OPTIONS' && header(f, 'access-control-request-method') !== undefined,
  ),
  namedCredentialHeader(
    'refusal-varies-on-credential-header',
    "a gateway's cache varies its refusals of requests with a query on its own credential header (Vary: Authorization, X-Session-Key on a 401 or 403 to a request with a query string, on no other answer) and authenticates a request without Authorization by it",
    'X-Session-Key',
    (f, status) => (status === 401 || status === 403) && f.search.length > 0,
    'Vary',
  ),
  fault(
    'session-cookie-accepted',
    'AUTH-MISSING',
    'answers to a valid key set a session cookie (Set-Cookie: sid=…); a request without Authorization that sends it back is that key',
    {
      headers: (h, f, status) => {
        const k = IDENTITY_KEYS.find((x) => x.secret === f.presented);
        if (k && status < 300) h['Set-Cookie'] = `sid=${sessionOf(k)}; Path=/; HttpOnly`;
      },
      alternateKey: (r, keys) => {
        const sid = /(?:^|;\s*)sid=([^;]+)/.exec(header(r, 'cookie') ?? '')?.[1];
        return sid ? keys.find((k) => sessionOf(k) === sid) : undefined;
      },
    },
  ),
  fault(
    'merchant-from-query',
    'MER-ISOLATION',
    "a merchant_id query parameter (an older API version's) picks the listing served; the merchant and mode checks ran on the path's merchant",
    {
      access: (a, r) => {
        const other = MERCHANTS.find((m) => m.id === param(r.search, 'merchant_id'));
        if (a.failure || !other || other.id === a.merchant?.id) return;
        a.listing = [listingKey(other.id, other.kind === 'sandbox' ? 'test' : a.mode)];
      },
    },
  ),
  fault(
    'key-list-accepted',
    'AUTH-INVALID',
    'a Bearer token with commas is read as a list: accepted when every element is the same issued key ("Bearer <key>,<key>")',
    {
      matchKey: (token, keys) => {
        const parts = token.split(',');
        return parts.length > 1 && parts.every((p) => p === parts[0])
          ? keys.find((k) => k.secret === parts[0])
          : undefined;
      },
    },
  ),
  fault(
    'merchant-id-control-mode-bypass',
    'MODE-LIVE-SANDBOX',
    'the lookup strips control characters from the merchant id, the mode check compares the id as sent: msb_…%00 lets the live key in',
    {
      access: (a) => {
        if (a.merchant || ![...a.merchantId].some(isControl)) return;
        const m = MERCHANTS.find((x) => x.id === withoutControls(a.merchantId));
        if (m)
          Object.assign(a, {
            merchant: m,
            failure: undefined,
            listing: [listingKey(m.id, m.kind === 'sandbox' ? 'test' : a.mode)],
          });
      },
    },
  ),
  fault(
    'invalid-key-401-base64-page',
    'AUTH-INVALID',
    "a never-issued key's 401 carries X-Debug-Trace: the last page served to anyone, as Base64 of its JSON",
    {
      page: (data) => {
        lastServed = data;
        return undefined;
      },
      headers: (h, f, status) => {
        if (status !== 401 || f.presented === undefined || ISSUED.includes(f.presented) || lastServed.length === 0)
          return;
        h['X-Debug-Trace'] = Buffer.from(JSON.stringify(lastServed.slice(0, 3))).toString('base64');
      },
    },
  ),
  fault(
    'busy-503-carries-page',
    'AUTH-MISSING',
    'every 20th request without Authorization is answered 503 with Retry-After: 0 (a load shedder), its body carrying the last page served to anyone',
    {
      page: (data) => {
        lastServed = data;
        return undefined;
      },
      beforeAuth: (_route, _store, r) => {
        if (header(r, 'authorization') !== undefined) return undefined;
        unauthenticated += 1;
        if (unauthenticated % 20 !== 0 || lastServed.length === 0) return undefined;
        return { ...reject(503, MESSAGES.busy), carries: { field: 'lastResult', rows: lastServed } };
      },
      headers: (h, _f, status) => {
        if (status === 503) h['Retry-After'] = '0';
      },
    },
  ),
  fault(
    'status-no-content-type-open',
    'AUTH-MISSING',
    '/merchant/status without Authorization and without Content-Type answers 200 (a shortcut for "simple" requests)',
    {
      alternateKey: (r, keys) =>
        r.route === 'status' && r.contentType === undefined ? keys.find((k) => k.slot === 'test') : undefined,
    },
  ),
  fault(
    'status-accepts-key-shape',
    'AUTH-INVALID',
    "/merchant/status accepts any key of an issued key's form: sk_test_, then letters only, as long as the test key (a format check taken for a lookup)",
    {
      auth: (c, r) => {
        const token = c.credentials.token;
        const shaped = /^sk_test_[A-Za-z]+$/.test(token) && token.length === IDENTITY.keys.test.length;
        if (r.route !== 'status' || c.key || !shaped) return;
        c.key = IDENTITY_KEYS.find((k) => k.slot === 'test');
        c.failure = undefined;
      },
    },
  ),
  fault(
    'conditional-before-auth',
    'AUTH-MISSING',
    'a conditional-GET layer mounted before authentication: answers carry an ETag (of the path and query), and a GET or HEAD without a valid key whose If-None-Match names it (or *) is answered 304 Not Modified instead of 401',
    {
      headers: (h, f, status) => {
        if (status === 200 && conditional(f) && f.route !== 'unknown') h.ETag = tagOf(f);
      },
      error: (failure, f) => {
        const tags = (header(f, 'if-none-match') ?? '').split(',').map((t) => t.trim());
        if (
          failure.status === 401 &&
          conditional(f) &&
          f.route !== 'unknown' &&
          tags.some((t) => t === '*' || t === tagOf(f))
        )
          failure.status = 304;
      },
      text: (_body, status) => (status === 304 ? '' : undefined),
    },
  ),
  csvExport(
    'csv-export-uncapped',
    'a CSV export behind content negotiation forgets the cap: a listing asked with Accept: text/csv (preferred to JSON) is every record of the listing from its offset, whatever the limit',
    prefersCsv,
  ),
  csvExport(
    'format-param-csv-uncapped',
    'a CSV export behind a format query parameter forgets the cap: a listing asked with ?format=csv is every record of the listing from its offset, whatever the limit',
    (f) => param(f.search, 'format') === 'csv',
  ),
  liveOnSandboxWhen(
    'live-on-sandbox-sorted-deep',
    'the mode check is missing on the sorted query past the first pages: the live key lists a sandbox merchant with sort and offset ≥ 20',
    (r, offset) => param(r.search, 'sort') !== null && offset >= 20,
  ),
  liveOnSandboxWhen(
    'live-on-sandbox-desc-deep-get',
    'the mode check is missing on one pair of query features alone: the live key lists a sandbox merchant on a GET sorted descending past the first pages (offset ≥ 30)',
    (r, offset) => r.method === 'GET' && (param(r.search, 'sort')?.startsWith('-') ?? false) && offset >= 30,
  ),
];

/** The issued keys as the faults above compare them (the mock's identity; the key table is the server's). */
const IDENTITY_KEYS: readonly KeyRecord[] = (Object.entries(IDENTITY.keys) as Array<[KeyRecord['slot'], string]>).map(
  ([slot, secret]) => ({
    slot,
    secret,
    mode: slot === 'live' ? 'live' : 'test',
    permissions: ['merchant:status', 'payments:read'],
    revoked: slot === 'revoked',
  }),
);
