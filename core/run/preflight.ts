/**
 * The preflight: a handful of requests before any check (global setup), within the run's budget and pace, that tell a
 * set-up mistake from an API that is wrong, and stop the run in seconds with the fix named. docs/reading.md "How the
 * preflight decides" is the reading; `decide` (preflight-decision.ts) is that reading as a pure function of what the
 * requests saw, and `runPreflight` sends them.
 *
 *  1. GET /merchant/status without a key: the target answers at all (else exit 3, with the scheme it speaks when
 *     https:// meets plain HTTP or http:// meets TLS), and not with a redirect (never followed: a key must never go to
 *     another host; exit 2, the Location named without its query);
 *  2. each valid key configured (test, live, restricted) on /merchant/status and on its own merchant's listing
 *     (limit=1); the test key on LIVE_MERCHANT_ID and OTHER_SANDBOX_MERCHANT_ID when they are configured;
 *  3. once the target is the API, each declared collection's listing (--collections), once: a 404 or an HTML page
 *     there is a path the target does not serve (preflight-collections.ts).
 *
 * Then, in this order: an answer that is not the API (no JSON anywhere; 404 on /merchant/status for every key) is a
 * bad API_BASE_URL; a key refused with 401 on both endpoints while another is accepted (or every key refused) is a bad
 * key; a merchant that answers 404 to every accepted key that may list it (a 403 says nothing of the merchant) is a bad
 * merchant id. All exit 2. What would hide
 * a real fault goes on to the rules: a key accepted on one endpoint and refused on the other (AUTH-STATUS, MODE-*), a
 * merchant found by one key and not by another (MODE-TEST-LIVE, MODE-LIVE-LIVE, MODE-TEST-SANDBOX).
 */
import { ApiClient, BudgetExhausted, TargetGone, TransportError } from '../client/http.ts';
import type { Collection } from '../model/collection.ts';
import { type Auth, asKey, type KeySlot, NO_AUTH, VALID_SLOTS } from '../model/credentials.ts';
import { type Exchange, is2xx } from '../model/exchange.ts';
import { paymentsPath, STATUS_PATH } from '../model/listing.ts';
import type { PreflightReport } from '../model/run-context.ts';
import type { Target } from '../model/target.ts';
import { type CollectionStep, collectionSteps, unservedCollections } from './preflight-collections.ts';
import {
  type BodyKind,
  decide,
  isRedirect,
  type MerchantVar,
  type PreflightFacts,
  type Probe,
  type Seen,
  swapScheme,
} from './preflight-decision.ts';

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
type PreflightClient = (target: Target) => ApiClient;

/**
 * Sends the preflight's requests (stopping at the first that fails or redirects) and decides; then, when the target
 * is the API, asks each declared collection's listing once (preflight-collections.ts).
 */
export async function runPreflight(
  target: Target,
  client: PreflightClient = (t) => new ApiClient(t),
  collections: readonly Collection[] = [],
): Promise<PreflightReport> {
  const api = client(target);
  const probes: Probe[] = [];
  const asked: Array<CollectionStep & { seen: Seen }> = [];
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
    if (decide(factsOf(target, probes)).decision === 'go') {
      for (const step of collectionSteps(target, collections)) {
        const seen = await ask(api, target, step.path, asKey(step.auth), [['limit', '1']], client);
        if (seen === undefined) break;
        asked.push({ ...step, seen });
      }
    }
  } finally {
    await api.close();
  }
  const decided = decide({ ...factsOf(target, probes), answeringBase });
  const unserved = decided.decision === 'go' ? unservedCollections(asked) : [];
  const times = probes.flatMap((p) => (p.seen.kind === 'answer' ? [p.seen.ms] : [])).sort((a, b) => a - b);
  return {
    ...decided,
    ...(unserved.length ? { decision: 'configuration' as const, problems: unserved } : {}),
    requests: api.sent,
    ...(times.length > 0 ? { latencyMs: Math.round(times[Math.floor(times.length / 2)] as number) } : {}),
  };
}

/** What the decision reads of the target and the probes. */
function factsOf(target: Target, probes: Probe[]): PreflightFacts {
  return {
    baseURL: target.baseURL,
    merchants: {
      SANDBOX_MERCHANT_ID: target.merchants.sandbox,
      LIVE_MERCHANT_ID: target.merchants.live,
      OTHER_SANDBOX_MERCHANT_ID: target.merchants.otherSandbox,
    },
    probes,
    liveSlots: VALID_SLOTS.filter((slot) => target.keys[slot]?.startsWith('sk_live_')),
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
