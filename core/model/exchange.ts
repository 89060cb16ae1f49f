/**
 * One request and its answer as the checks see it (an Exchange): what was sent, in words and as a curl line, and
 * what came back. It never holds a key: the credential is named by its variable, and whether the answer gave a key
 * back is a short description of where (`header x-api-key`), computed by the client that knew the key.
 */
import { type Auth, headerPieces, KEY_VARS, type KeySlot } from './credentials.ts';
import type { SafeMethod } from './endpoints.ts';

/**
 * A query parameter: name and value, percent-encoded when sent (brackets stay literal), unless marked `raw` (the
 * value is sent as given, already percent-encoded: an invalid UTF-8 byte `%FF`) or `bare` (the name alone, no `=`).
 */
type QueryPair = [name: string, value: string, form?: 'raw' | 'bare'];
export type QueryPairs = QueryPair[];

/** A configured key inside a value, by its slot (never its value): the client writes the key there at the last moment. */
export interface KeyRef {
  slot: KeySlot;
}

/** A header value as text and keys: what curl prints with the key's variable (`$API_TEST_KEY`) in its place. */
export type ValuePieces = ReadonlyArray<string | KeyRef>;

/**
 * Inputs a request carries beside the documented ones (reading "Inputs the spec does not document"): more query
 * parameters, more headers (a value may hold a configured key, by its slot), and documented headers left out. The
 * door checks send them (core/run/doors.ts); the watcher learns no record from an answer to such a request (its
 * listing is not the canonical one).
 */
export interface ExtraInputs {
  query?: QueryPairs;
  /**
   * Query parameters that hold a configured key, by its slot: the client writes the key into the URL at the last
   * moment and keeps only its variable (`access_token=$API_TEST_KEY` in the exchange's URL, query and curl line). Every
   * proxy logs a URL: the door checks send them only where none can be (core/run/door-operators.ts).
   */
  keyedQuery?: ReadonlyArray<{ name: string; key: KeyRef }>;
  headers?: ReadonlyArray<{ name: string; value: ValuePieces }>;
  /** Documented headers left out (lower-case names): `content-type` on /merchant/status. */
  omit?: readonly string[];
}

/**
 * What a request was sent for: the check (its title, its rule, Playwright's test id, which ties the request to the
 * check's record), or the preflight's requests (`preflight`, no rule, no test). The client tags every exchange with it.
 */
export interface RequestTag {
  check: string;
  rule: string | null;
  test: string | null;
}

/** The tag of the preflight's requests (global setup, before any check). */
export const PREFLIGHT_TAG: RequestTag = { check: 'preflight', rule: null, test: null };

export interface Exchange {
  readonly method: SafeMethod;
  readonly url: string;
  readonly path: string;
  readonly query: QueryPairs;
  /** The headers sent besides Authorization (documented headers of the endpoint, Accept, …): never a secret. */
  readonly sent: Readonly<Record<string, string>>;
  /** How the request authenticated: the credential without its secret (the slot of a configured key, never the key). */
  readonly auth: Auth;
  /** How the request authenticated, in words: `Authorization: Bearer $API_TEST_KEY`, `no Authorization header`, … */
  readonly authLabel: string;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
  /** Parsed JSON body; undefined when the body is not JSON. */
  readonly json: unknown;
  readonly curl: string;
  /** Where the response carries the presented key (`body`, `header x-api-key`), or undefined. Never the key. */
  readonly keyLeak: string | undefined;
  /** Present when the body was longer than the suite reads (5 MB): `text` is its first part. */
  readonly truncated?: true;
  /** What it was sent for (the check, or the preflight); absent outside a check. */
  readonly sentFor?: RequestTag;
  /** The inputs beside the documented ones it carried (their keys by slot only); absent for a documented request. */
  readonly extra?: ExtraInputs;
  /**
   * An answer the client did not return but asked again after waiting (a 429, or a 503 with Retry-After): seen by the
   * observers all the same, since it is an answer of the target like any other.
   */
  readonly waitedOut?: true;
  /**
   * When it was on the wire, in the worker's `performance.now()` ms: from the moment it was sent (after the pace's wait)
   * to its answer. What says whether two requests were in flight together (core/run/concurrency.ts).
   */
  readonly onWire?: { start: number; end: number };
}

export const is2xx = (status: number) => status >= 200 && status < 300;
export const isClientError = (status: number) => status >= 400 && status < 500;

export function buildURL(baseURL: string, path: string, query: QueryPairs): string {
  // Brackets stay literal (`filter[status]`), as the spec writes them; everything else is percent-encoded.
  const enc = (s: string) => encodeURIComponent(s).replace(/%5B/gi, '[').replace(/%5D/gi, ']');
  const qs = query
    .map(([k, v, form]) => (form === 'bare' ? enc(k) : `${enc(k)}=${form === 'raw' ? v : enc(v)}`))
    .join('&');
  return `${baseURL}${path}${qs ? `?${qs}` : ''}`;
}

/**
 * A curl line that reproduces the request: its method, the headers sent besides Authorization, and the credential
 * with the key only as its variable (`$API_TEST_KEY`).
 */
export function curlFor(
  url: string,
  auth: Auth,
  method: SafeMethod = 'GET',
  sent: Readonly<Record<string, string>> = {},
  keyed: ExtraInputs['headers'] = [],
): string {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  let header = '';
  if (auth.kind === 'literal') header = ` -H ${quote(`Authorization: ${auth.header}`)}`;
  if (auth.kind === 'key') {
    const value = headerPieces(auth)
      .map((p) => {
        if (typeof p === 'string') return doubleQuoted(p);
        const ref = `$${KEY_VARS[p.slot]}`;
        return p.main && auth.mutation ? auth.mutation.shell(ref) : ref;
      })
      .join('');
    header = ` -H "Authorization: ${value}"`;
  }
  // Accept is curl's own default (*/*) otherwise; it changes no answer the suite judges, so it is left out.
  const others = Object.entries(sent)
    .filter(([name]) => name !== 'accept')
    .map(([name, value]) => ` -H ${quote(`${canonicalName(name)}: ${value}`)}`)
    .join('');
  // A header that holds a key: in double quotes, the key as its variable.
  const withKeys = keyed
    .map(({ name, value }) => {
      const text = value.map((p) => (typeof p === 'string' ? doubleQuoted(p) : `$${KEY_VARS[p.slot]}`)).join('');
      return ` -H "${doubleQuoted(canonicalName(name))}: ${text}"`;
    })
    .join('');
  const how = method === 'HEAD' ? ' -I' : method === 'OPTIONS' ? ' -X OPTIONS' : '';
  return `curl -sS -g -i${how}${header}${others}${withKeys} ${quote(url)}`;
}

/**
 * Text as it reads between double quotes in POSIX shell: `\`, `"`, `$` and backquotes escaped, a tab written
 * `$(printf '\t')` so that it survives a copy from a terminal.
 */
const doubleQuoted = (s: string) => s.replace(/[\\"$`]/g, '\\$&').replace(/\t/g, `$(printf '\\t')`);

/** `content-type` → `Content-Type`, as the spec writes header names. */
const canonicalName = (name: string) =>
  name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase());

/** A line of requests.ndjson: one request, secret-free. */
export interface LoggedRequest {
  /** ISO time it was sent. */
  time: string;
  ms: number;
  /** The check that sent it (its title), `preflight` for global setup's, null outside any check. */
  check: string | null;
  rule: string | null;
  /** Playwright's id of the check's test (ties the line to its record). */
  test: string | null;
  method: SafeMethod;
  url: string;
  /** The slot of the key it carried (`API_TEST_KEY`), `literal` for a made-up credential, `none` without one. */
  key: string;
  /** The Authorization header as words: `Authorization: Bearer $API_TEST_KEY`, `no Authorization header`. */
  authorization: string;
  status: number | null;
  error?: string;
  headers: Record<string, string>;
  /** The body, redacted, up to BODY_LIMIT characters. */
  body: string;
  /** The body's length in characters (before it was cut). */
  bodyLength: number;
  truncated: boolean;
}
