/**
 * The preflight's decision (docs/reading.md "How the preflight decides") as a pure function of what its requests saw:
 * no answer, a redirect, not the API, keys refused on both endpoints, merchants no accepted key finds — the first that
 * holds decides — and the notes that stop nothing. core/run/preflight.ts sends the requests.
 */
import { KEY_VARS, type KeySlot } from '../model/credentials.ts';
import { is2xx } from '../model/exchange.ts';
import { STATUS_PATH } from '../model/listing.ts';
import type { PreflightReport } from '../model/run-context.ts';

/** What a body is, as far as telling the API from something else goes. */
export type BodyKind = 'json' | 'json-bom' | 'html' | 'empty' | 'other';

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

export type MerchantVar = 'SANDBOX_MERCHANT_ID' | 'LIVE_MERCHANT_ID' | 'OTHER_SANDBOX_MERCHANT_ID';

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

export const isRedirect = (s: Seen): s is Extract<Seen, { kind: 'answer' }> & { location: string } =>
  s.kind === 'answer' && s.status >= 300 && s.status < 400 && !!s.location;

const BASE_URL_SHAPE =
  'API_BASE_URL is the address the suite appends /merchant/status and /payments/n1/merchant/<id>/payments to ' +
  '(a path prefix is allowed, e.g. https://gateway.example.com/payment-api)';

/** How an answer reads in a sentence: `HTTP 404 text/html (an HTML page titled "Error response")`. */
export function describeAnswer(s: Extract<Seen, { kind: 'answer' }>): string {
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

export const swapScheme = (base: string, scheme: 'http' | 'https') => base.replace(/^https?:/, `${scheme}:`);

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
