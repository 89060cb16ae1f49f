/**
 * The preflight: a handful of requests before any check (global setup), within the run's budget and pace, that tell a
 * set-up mistake from an API that is wrong, and stop the run in seconds with the fix named. docs/reading.md "How the
 * preflight decides" is the reading; `decide` is that reading as a pure function of what the requests saw, and
 * `runPreflight` sends them.
 *
 *  1. GET /merchant/status without a key: the target answers at all (else exit 3, with the scheme it speaks when
 *     https:// meets plain HTTP or http:// meets TLS), and not with a redirect (never followed: a key must never go to
 *     another host; exit 2, the Location named without its query);
 *  2. each valid key configured (test, live, restricted) on /merchant/status and on its own merchant's listing
 *     (limit=1); the test key on LIVE_MERCHANT_ID and OTHER_SANDBOX_MERCHANT_ID when they are configured.
 *
 * Then, in this order: an answer that is not the API (no JSON anywhere; 404 on /merchant/status for every key) is a
 * bad API_BASE_URL; a key refused with 401 on both endpoints while another is accepted (or every key refused) is a bad
 * key; a merchant that answers 404 to every accepted key that may list it (a 403 says nothing of the merchant) is a bad
 * merchant id. All exit 2. What would hide
 * a real fault goes on to the rules: a key accepted on one endpoint and refused on the other (AUTH-STATUS, MODE-*), a
 * merchant found by one key and not by another (MODE-TEST-LIVE, MODE-LIVE-LIVE, MODE-TEST-SANDBOX).
 */
import { ApiClient, BudgetExhausted, TargetGone, TransportError } from '../client/http.ts';
import { type Auth, asKey, KEY_VARS, type KeySlot, NO_AUTH, VALID_SLOTS } from '../model/credentials.ts';
import { type Exchange, is2xx } from '../model/exchange.ts';
import { paymentsPath, STATUS_PATH } from '../model/listing.ts';
import type { PreflightReport } from '../model/run-context.ts';
import type { Target } from '../model/target.ts';

/** What a body is, as far as telling the API from something else goes. */
type BodyKind = 'json' | 'json-bom' | 'html' | 'empty' | 'other';

/** What one preflight request saw: an answer, summarised, or a transport failure. */
export type Seen =
  | {
      kind: 'answer';
      status: number;
      body: BodyKind;
      /** `text/html; charset=utf-8`, or '' when absent. */
      contentType: string;
      /** An HTML page's <title>. */
      title?: string;
      /** A redirect's Location, resolved: scheme, host and path only (never the query). */
      location?: string;
      /** Content-Encoding, when the target compressed its answer. */
      encoding?: string;
      /** The body was longer than the suite reads (5 MB). */
      truncated?: boolean;
      ms: number;
    }
  | {
      kind: 'failed';
      /** The failure in one sentence (transport.ts), naming what to do where it can. */
      reason: string;
      /** The transport failure's code, and for a timeout where it passed. */
      code?: string;
      timeout?: string;
      /** Which scheme the target speaks when the configured one failed the handshake ('http' or 'https'). */
      speaks?: 'http' | 'https';
      /** The target speaks TLS, with a certificate Node does not trust. */
      speaksUntrusted?: boolean;
    };

type MerchantVar = 'SANDBOX_MERCHANT_ID' | 'LIVE_MERCHANT_ID' | 'OTHER_SANDBOX_MERCHANT_ID';

/** One preflight request and what it saw. */
export interface Probe {
  endpoint: 'status' | 'list';
  auth: 'none' | KeySlot;
  /** For a listing: whose. */
  merchant?: MerchantVar;
  path: string;
  seen: Seen;
}

export interface PreflightFacts {
  baseURL: string;
  merchants: Partial<Record<MerchantVar, string>>;
  probes: Probe[];
  /** A base URL one or more path segments shorter that answers /merchant/status to the test key, if one was found. */
  answeringBase?: string;
  /** The slots whose key is a live key (sk_live_): a live key's 404 on a sandbox merchant is the rule, not a sign. */
  liveSlots?: KeySlot[];
}

const isRedirect = (s: Seen): s is Extract<Seen, { kind: 'answer' }> & { location: string } =>
  s.kind === 'answer' && s.status >= 300 && s.status < 400 && !!s.location;

const BASE_URL_SHAPE =
  'API_BASE_URL is the address the suite appends /merchant/status and /payments/n1/merchant/<id>/payments to ' +
  '(a path prefix is allowed, e.g. https://gateway.example.com/payment-api)';

/** How an answer reads in a sentence: `HTTP 404 text/html (an HTML page titled "Error response")`. */
function describeAnswer(s: Extract<Seen, { kind: 'answer' }>): string {
  const type = s.contentType.split(';')[0]?.trim() || 'no Content-Type';
  const what: Record<BodyKind, string> = {
    json: 'JSON',
    'json-bom': 'JSON after a byte order mark',
    html: s.title ? `an HTML page titled "${s.title}"` : 'an HTML page',
    empty: 'an empty body',
    other: s.truncated ? 'a body of more than 5 MB, cut there' : 'a body that is not JSON',
  };
  return `HTTP ${s.status} ${type} (${what[s.body]})`;
}

/** Where a probe asked, in words: `GET /merchant/status with API_TEST_KEY`. */
const asked = (p: Probe) => `GET ${p.path} ${p.auth === 'none' ? 'without a key' : `with ${KEY_VARS[p.auth]}`}`;

/** The base URL a redirect suggests: the Location without the path the suite asked for, when it ends with it. */
export function suggestedBase(location: string, askedPath: string): string | undefined {
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    return undefined;
  }
  const path = url.pathname.replace(/\/+$/, '');
  if (!path.endsWith(askedPath)) return undefined;
  return `${url.protocol}//${url.host}${path.slice(0, path.length - askedPath.length)}`;
}

const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
};

const swapScheme = (base: string, scheme: 'http' | 'https') => base.replace(/^https?:/, `${scheme}:`);

/** A decision that stops the run, without the notes every decision carries. */
type Refusal = Omit<PreflightReport, 'requests' | 'latencyMs' | 'notes'>;
type Answered = Probe & { seen: Extract<Seen, { kind: 'answer' }> };

/**
 * The preflight's decision from what its requests saw, in order: no answer, a redirect, not the API, keys refused on
 * both endpoints, merchants no accepted key finds. The first that holds decides. Pure.
 */
export function decide(facts: PreflightFacts): Omit<PreflightReport, 'requests' | 'latencyMs'> {
  const notes = notesOf(facts.probes);
  const answers = facts.probes.filter((p): p is Answered => p.seen.kind === 'answer');
  const refusal =
    noAnswer(facts) ??
    redirected(facts) ??
    (answers.length === 0
      ? undefined
      : (notTheApi(facts, answers) ?? refusedKeys(facts, answers) ?? unknownMerchants(facts, answers)));
  return refusal ? { ...refusal, notes } : { decision: 'go', problems: [], notes };
}

/** No answer: unreachable, or a scheme the target does not speak. */
function noAnswer({ probes, baseURL }: PreflightFacts): Refusal | undefined {
  const failed = probes.find((p) => p.seen.kind === 'failed');
  if (failed && failed.seen.kind === 'failed') {
    const f = failed.seen;
    if (f.speaks === 'http') {
      const fix = swapScheme(baseURL, 'http');
      return {
        decision: 'unreachable',
        problems: [
          `Target ${baseURL} is unreachable, no check was run: it speaks plain HTTP, not TLS (the TLS handshake failed: ${f.code === 'EPROTO' ? 'wrong version number' : (f.code ?? 'closed')}); use http://: API_BASE_URL=${fix}`,
        ],
      };
    }
    if (f.speaks === 'https') {
      const fix = swapScheme(baseURL, 'https');
      const trust = f.speaksUntrusted
        ? ', and trust its certificate (NODE_EXTRA_CA_CERTS names the PEM file of the CA that signed it)'
        : '';
      return {
        decision: 'unreachable',
        problems: [
          `Target ${baseURL} is unreachable, no check was run: it speaks TLS, not plain HTTP (the connection was closed: ${f.code ?? 'reset'}); use https://: API_BASE_URL=${fix}${trust}`,
        ],
      };
    }
    const how = f.timeout || f.code === 'ECONNRESET' ? 'does not answer' : 'is unreachable';
    const first = failed === probes[0] ? '' : ` (it answered ${probes.indexOf(failed)} request(s) before)`;
    return {
      decision: 'unreachable',
      problems: [`Target ${baseURL} ${how}, no check was run${first}. ${f.reason}`],
    };
  }

  return undefined;
}

/** A redirect, never followed. */
function redirected({ probes, baseURL }: PreflightFacts): Refusal | undefined {
  const redirected = probes.find((p) => isRedirect(p.seen));
  if (redirected && isRedirect(redirected.seen)) {
    const location = redirected.seen.location;
    const elsewhere = hostOf(location) !== hostOf(baseURL) ? ' (another host)' : '';
    const base = suggestedBase(location, redirected.path);
    const fix = base
      ? `set API_BASE_URL to ${base} if that is the API`
      : "set API_BASE_URL to the API's own address, not a gateway that redirects";
    return {
      decision: 'configuration',
      problems: [
        `Target ${baseURL} answers ${asked(redirected)} with a redirect, HTTP ${redirected.seen.status} to ${location}${elsewhere}; the suite follows no redirect (a key must never go to another host): ${fix}.`,
      ],
    };
  }

  return undefined;
}

/** The keyed answers of one endpoint. */
const keyed = (answers: Answered[], endpoint: Probe['endpoint']) =>
  answers.filter((p) => p.endpoint === endpoint && p.auth !== 'none');

/** Not the API: nothing answered JSON, or /merchant/status is not there for any key. */
function notTheApi(facts: PreflightFacts, answers: Answered[]): Refusal | undefined {
  const { baseURL } = facts;
  if (!answers.some((p) => p.seen.body === 'json' || p.seen.body === 'json-bom')) {
    const first = answers[0] as (typeof answers)[number];
    return {
      decision: 'configuration',
      problems: [
        `Target ${baseURL} is not the payment API: ${asked(first)} answered ${describeAnswer(first.seen)}, and none of its ${answers.length} answer(s) was JSON. ${BASE_URL_SHAPE}.`,
      ],
    };
  }
  const statusKeyed = keyed(answers, 'status');
  const listed = keyed(answers, 'list');
  if (
    statusKeyed.length > 0 &&
    statusKeyed.every((p) => p.seen.status === 404) &&
    !listed.some((p) => is2xx(p.seen.status) || p.seen.status === 403)
  ) {
    const names = statusKeyed.map((p) => KEY_VARS[p.auth as KeySlot]).join(', ');
    const fix = facts.answeringBase
      ? ` The API answers one level up: API_BASE_URL=${facts.answeringBase}.`
      : ` ${BASE_URL_SHAPE}.`;
    return {
      decision: 'configuration',
      problems: [
        `Target ${baseURL} answers 404 to GET ${STATUS_PATH} for every key (${names}): API_BASE_URL's path is not where the API is.${fix}`,
      ],
    };
  }

  return undefined;
}

/** Keys refused with 401 on both endpoints, while another is accepted (or every one is refused). */
function refusedKeys({ baseURL }: PreflightFacts, answers: Answered[]): Refusal | undefined {
  const statusKeyed = keyed(answers, 'status');
  const slots = [...new Set(statusKeyed.map((p) => p.auth as KeySlot))];
  const answerOf = (slot: KeySlot, endpoint: Probe['endpoint']) =>
    answers.find((p) => p.auth === slot && p.endpoint === endpoint)?.seen.status;
  /** A key's own merchant's listing: the first listing it was tried on (plan). */
  const ownListing = (slot: KeySlot) => answers.find((p) => p.auth === slot && p.endpoint === 'list')?.seen.status;
  const refused = slots.filter((s) => answerOf(s, 'status') === 401 && ownListing(s) === 401);
  const accepted = slots.filter((s) => {
    const status = answerOf(s, 'status') ?? 0;
    const list = ownListing(s) ?? 0;
    return is2xx(status) || is2xx(list) || list === 403 || list === 404;
  });
  if (refused.length > 0 && (accepted.length > 0 || refused.length === slots.length)) {
    const others =
      accepted.length > 0
        ? ` while ${accepted.map((s) => KEY_VARS[s]).join(' and ')} ${accepted.length > 1 ? 'are' : 'is'} accepted: expired, revoked or deleted?`
        : slots.length > 1
          ? `, as is every configured key: expired or deleted, or keys of another environment than ${baseURL}?`
          : `: expired or deleted, or a key of another environment than ${baseURL}?`;
    return {
      decision: 'configuration',
      problems: refused.map(
        (s) =>
          `${KEY_VARS[s]} is refused with 401 on both endpoints (${STATUS_PATH} and its merchant's listing)${others} Set ${KEY_VARS[s]} to a current key of this environment.`,
      ),
    };
  }

  return undefined;
}

/** Merchants no accepted key of their mode finds. */
function unknownMerchants(facts: PreflightFacts, answers: Answered[]): Refusal | undefined {
  const listed = keyed(answers, 'list');
  const answerOf = (slot: KeySlot, endpoint: Probe['endpoint']) =>
    answers.find((p) => p.auth === slot && p.endpoint === endpoint)?.seen.status;
  const problems: string[] = [];
  for (const variable of ['SANDBOX_MERCHANT_ID', 'LIVE_MERCHANT_ID', 'OTHER_SANDBOX_MERCHANT_ID'] as const) {
    const id = facts.merchants[variable];
    if (!id) continue;
    // The accepted keys of the merchant's mode (any key on the live merchant: a test key lists its test data, §5.5).
    const sameMode = (slot: KeySlot) => variable === 'LIVE_MERCHANT_ID' || !facts.liveSlots?.includes(slot);
    // A 403 is no evidence either way: a key that lacks the permission may be refused before the merchant is looked
    // up (a legal order, §7), so only the keys that may list the merchant decide.
    const tried = listed.filter(
      (p) =>
        p.merchant === variable &&
        sameMode(p.auth as KeySlot) &&
        is2xx(answerOf(p.auth as KeySlot, 'status') ?? 0) &&
        p.seen.status !== 403,
    );
    if (tried.length === 0 || !tried.every((p) => p.seen.status === 404)) continue;
    const keys = tried.map((p) => KEY_VARS[p.auth as KeySlot]);
    problems.push(
      `${variable}=${id} is not found: ${keys.join(' and ')}, accepted by ${STATUS_PATH}, get${keys.length > 1 ? '' : 's'} 404 on its listing. Set ${variable} to a merchant of ${keys.length > 1 ? "those keys'" : "that key's"} account.`,
    );
  }
  return problems.length > 0 ? { decision: 'configuration', problems } : undefined;
}

/** What the reader should know that does not stop the run. */
function notesOf(probes: Probe[]): string[] {
  const notes: string[] = [];
  const answers = probes.flatMap((p) => (p.seen.kind === 'answer' ? [p.seen] : []));
  if (answers.some((a) => a.body === 'json-bom')) {
    notes.push(
      'The target starts its JSON bodies with a byte order mark (U+FEFF), which RFC 8259 §8.1 forbids: the checks read them as invalid JSON.',
    );
  }
  const encodings = [...new Set(answers.flatMap((a) => (a.encoding ? [a.encoding] : [])))];
  if (encodings.length > 0) {
    notes.push(
      `The target compresses its answers (Content-Encoding: ${encodings.join(', ')}) though the suite sent no Accept-Encoding, which RFC 9110 §12.5.3 allows: they are read decoded.`,
    );
  }
  return notes;
}

/** An exchange summarised for the decision. */
function seenOf(e: Exchange, ms: number): Extract<Seen, { kind: 'answer' }> {
  const contentType = e.headers['content-type'] ?? '';
  const text = e.text;
  let body: BodyKind;
  if (text.trim() === '') body = 'empty';
  else if (e.json !== undefined) body = 'json';
  else if (text.startsWith('\uFEFF') && parses(text.slice(1))) body = 'json-bom';
  else if (/html/i.test(contentType) || /^\s*<(?:!doctype\s+html|html|head|body)\b/i.test(text)) body = 'html';
  else body = 'other';
  const title = body === 'html' ? /<title[^>]*>([^<]{1,120})<\/title>/i.exec(text)?.[1]?.trim() : undefined;
  const location = e.status >= 300 && e.status < 400 ? cleanLocation(e.headers.location, e.url) : undefined;
  const encoding = e.headers['content-encoding']?.trim();
  return {
    kind: 'answer',
    status: e.status,
    body,
    contentType,
    ms,
    ...(title ? { title } : {}),
    ...(location ? { location } : {}),
    ...(encoding && encoding !== 'identity' ? { encoding } : {}),
    ...(e.truncated ? { truncated: true } : {}),
  };
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** A Location resolved against the request, as scheme, host and path: never credentials, a query or a fragment. */
export function cleanLocation(location: string | undefined, requestURL: string): string | undefined {
  if (!location?.trim()) return undefined;
  try {
    const url = new URL(location.split(',')[0]?.trim() ?? '', requestURL);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return undefined;
  }
}

/** The preflight's requests, in order: what to ask, with which credential. */
function plan(target: Target): Array<Omit<Probe, 'seen'> & { query?: Array<[string, string]> }> {
  const one: Array<[string, string]> = [['limit', '1']];
  const { merchants, keys } = target;
  const list = (auth: KeySlot, merchant: MerchantVar, id: string) => ({
    endpoint: 'list' as const,
    auth,
    merchant,
    path: paymentsPath(id),
    query: one,
  });
  const steps: Array<Omit<Probe, 'seen'> & { query?: Array<[string, string]> }> = [
    { endpoint: 'status', auth: 'none', path: STATUS_PATH },
  ];
  for (const slot of VALID_SLOTS) {
    const key = keys[slot];
    if (!key) continue;
    steps.push({ endpoint: 'status', auth: slot, path: STATUS_PATH });
    // The key's own merchant: a live key's is the live merchant (when configured), a test key's the sandbox one.
    const live = key.startsWith('sk_live_') && merchants.live;
    steps.push(
      live
        ? list(slot, 'LIVE_MERCHANT_ID', merchants.live as string)
        : list(slot, 'SANDBOX_MERCHANT_ID', merchants.sandbox),
    );
  }
  if (merchants.live) steps.push(list('test', 'LIVE_MERCHANT_ID', merchants.live));
  if (merchants.otherSandbox) steps.push(list('test', 'OTHER_SANDBOX_MERCHANT_ID', merchants.otherSandbox));
  return steps;
}

const authOf = (slot: 'none' | KeySlot): Auth => (slot === 'none' ? NO_AUTH : asKey(slot));

/** A client of the preflight's for a target (global setup hands in the run's: its ledger, its request log, tagged). */
export type PreflightClient = (target: Target) => ApiClient;

/** Sends the preflight's requests (stopping at the first that fails or redirects) and decides. */
export async function runPreflight(
  target: Target,
  client: PreflightClient = (t) => new ApiClient(t),
): Promise<PreflightReport> {
  const api = client(target);
  const probes: Probe[] = [];
  let answeringBase: string | undefined;
  try {
    for (const step of plan(target)) {
      const { query, ...probe } = step;
      const seen = await ask(api, target, step.path, authOf(step.auth), query, client);
      if (seen === undefined) break; // the budget is spent: the checks will say so
      probes.push({ ...probe, seen });
      if (seen.kind === 'failed' || isRedirect(seen)) break;
    }
    const status = probes.filter((p) => p.endpoint === 'status' && p.auth !== 'none' && p.seen.kind === 'answer');
    if (status.length > 0 && status.every((p) => p.seen.kind === 'answer' && p.seen.status === 404)) {
      answeringBase = await shorterBase(target, client);
    }
  } finally {
    await api.close();
  }
  const facts: PreflightFacts = {
    baseURL: target.baseURL,
    merchants: {
      SANDBOX_MERCHANT_ID: target.merchants.sandbox,
      LIVE_MERCHANT_ID: target.merchants.live,
      OTHER_SANDBOX_MERCHANT_ID: target.merchants.otherSandbox,
    },
    probes,
    answeringBase,
    liveSlots: VALID_SLOTS.filter((slot) => target.keys[slot]?.startsWith('sk_live_')),
  };
  const times = probes.flatMap((p) => (p.seen.kind === 'answer' ? [p.seen.ms] : [])).sort((a, b) => a - b);
  return {
    ...decide(facts),
    requests: api.sent,
    ...(times.length > 0 ? { latencyMs: Math.round(times[Math.floor(times.length / 2)] as number) } : {}),
  };
}

/** One request: its answer summarised, its failure (with the scheme the target speaks when that was the problem). */
async function ask(
  api: ApiClient,
  target: Target,
  path: string,
  auth: Auth,
  query: Array<[string, string]> | undefined,
  client: PreflightClient,
): Promise<Seen | undefined> {
  const started = performance.now();
  try {
    // One more try for a connection that failed, none after API_TIMEOUT_MS passed: a target that does not answer is
    // named within one API_TIMEOUT_MS.
    const e = await api.get(path, { auth, query, retries: 1, timeoutRetries: 0 });
    return seenOf(e, performance.now() - started);
  } catch (error) {
    if (error instanceof BudgetExhausted) return undefined;
    if (error instanceof TargetGone) return { kind: 'failed', reason: error.message };
    if (!(error instanceof TransportError)) throw error;
    const failed: Extract<Seen, { kind: 'failed' }> = {
      kind: 'failed',
      reason: error.message,
      ...(error.code ? { code: error.code } : {}),
      ...(error.timeout ? { timeout: error.timeout } : {}),
    };
    return { ...failed, ...(await otherScheme(target, error, client)) };
  }
}

/**
 * When the configured scheme failed in a way the other one explains — https:// to a plain-HTTP port (the TLS
 * handshake reads an HTTP answer: EPROTO, "wrong version number"), or http:// to a TLS port (the server closes the
 * connection) — one request without a key in the other scheme says which one the target speaks.
 */
async function otherScheme(
  target: Target,
  error: TransportError,
  client: PreflightClient,
): Promise<Partial<Extract<Seen, { kind: 'failed' }>>> {
  const https = target.baseURL.startsWith('https:');
  const code = error.code ?? '';
  // A plain-HTTP server either answers the TLS hello with an HTTP error (EPROTO, "wrong version number") or closes.
  const handshake = https && (code === 'EPROTO' || code.startsWith('ERR_SSL_') || code === 'ECONNRESET');
  const closed = !https && ['ECONNRESET', 'EPIPE', 'HPE_INVALID_CONSTANT', 'HPE_INVALID_VERSION'].includes(code);
  if (!handshake && !closed) return {};
  const other = client({ ...target, baseURL: swapScheme(target.baseURL, https ? 'http' : 'https') });
  try {
    await other.get(STATUS_PATH, { auth: NO_AUTH, retries: 0 });
    return { speaks: https ? 'http' : 'https' };
  } catch (probeError) {
    // An untrusted certificate still shows the target speaks TLS.
    if (!https && probeError instanceof TransportError && probeError.code && isTlsCode(probeError.code))
      return { speaks: 'https', speaksUntrusted: true };
    return {};
  } finally {
    await other.close();
  }
}

const isTlsCode = (code: string) =>
  /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|ERR_TLS_CERT_ALTNAME_INVALID/.test(code);

/** A base URL with fewer path segments that answers /merchant/status to the test key (at most three tries). */
async function shorterBase(target: Target, client: PreflightClient): Promise<string | undefined> {
  const url = new URL(target.baseURL);
  const segments = url.pathname.split('/').filter(Boolean);
  for (let n = segments.length - 1; n >= 0 && segments.length - n <= 3; n--) {
    const base = `${url.origin}${n > 0 ? `/${segments.slice(0, n).join('/')}` : ''}`;
    const probe = client({ ...target, baseURL: base });
    try {
      const e = await probe.get(STATUS_PATH, { auth: asKey('test'), retries: 0 });
      if (is2xx(e.status) && e.json !== undefined) return base;
    } catch {
      return undefined;
    } finally {
      await probe.close();
    }
  }
  return undefined;
}
