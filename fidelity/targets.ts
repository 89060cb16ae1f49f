/**
 * The targets of a fidelity run (A, the reference, then the others): each from an env file (parsed with dotenv, never
 * into process.env, validated by the suite's own loader) or from a mock started in-process, with its own client, its
 * listings' totals, its declaration of each other collection, and the record ids it showed. Asking a case builds the
 * request from the target's own ids (an offset placed against its own total, its merchant's spellings), sends it and
 * judges the answer.
 */
import { readFileSync } from 'node:fs';
import dotenv from 'dotenv';
import { ApiClient, BudgetExhausted, TargetGone, TransportError } from '../core/client/http.ts';
import { authOf, keyModes, merchantId, pathOf } from '../core/generate/access-cases.ts';
import { PREFLIGHT_HEADERS } from '../core/generate/safe-methods.ts';
import { spelledPaymentsPath, spellingsOf } from '../core/generate/spelled-ids.ts';
import type { Collection } from '../core/model/collection.ts';
import { asKey, NO_AUTH } from '../core/model/credentials.ts';
import type { Exchange, QueryPairs } from '../core/model/exchange.ts';
import { listingPath, MAX_LIMIT, paymentsPath, requestQuery, STATUS_PATH } from '../core/model/listing.ts';
import { redact } from '../core/model/secrets.ts';
import type { Target } from '../core/model/target.ts';
import { ConfigError, NO_BUNDLED_MOCK, resolveTarget } from '../core/run/config.ts';
import { failureKind } from '../mock/index.ts';
import { type Case, place } from './cases.ts';
import { type Features, featuresOf } from './features.ts';
import { type Aspect, judge } from './judge.ts';
import { type AnswerShape, headerSkeletons, type Scrub, skeletonOf } from './skeleton.ts';

export interface Side {
  name: string;
  /** Where it came from: the env file, or the mock's description. */
  file: string;
  env: Record<string, string>;
  target: Target;
  api: ApiClient;
  /** Each listing's total, by collection name ('' for payments). */
  totals: Map<string, number>;
  /** This target's declaration of each other collection the cases read (by the cases' name for it). */
  collections: Map<string, Collection>;
  /** Record ids this target showed: a learned shape never carries one. */
  ids: { strings: Set<string>; numbers: Set<number> };
  /** The payment statuses its first page showed, and how many records each. */
  statuses: Map<string, number>;
  /** Keep each answer's shape (a calibration's reference), or the mock's failure kind (a calibration's mock). */
  learn?: 'shapes' | 'kinds';
}

/** One target's answer to a case, judged; `shape` and `kind` where the side learns them. */
export interface Answer {
  request: string;
  aspects: Aspect[];
  features: Features;
  shape?: AnswerShape;
  kind?: string;
}

/** A target from its variables, validated by the suite's loader; a refused configuration throws ConfigError. */
export function sideOf(name: string, file: string, env: Record<string, string>): Side {
  if (!env.API_BASE_URL?.trim()) throw new ConfigError(['API_BASE_URL is not set (a running target is needed)']);
  const target = resolveTarget({ ...env, CONFORMANCE_ALLOW_LIVE: process.env.CONFORMANCE_ALLOW_LIVE }, NO_BUNDLED_MOCK);
  const ids = { strings: new Set<string>(), numbers: new Set<number>() };
  const statuses = new Map<string, number>();
  return {
    name,
    file,
    env,
    target,
    api: new ApiClient(target),
    totals: new Map(),
    collections: new Map(),
    ids,
    statuses,
  };
}

/** The env files, named A, B, …; a file unreadable or refused throws ConfigError naming it (never a value). */
export function loadSides(files: readonly string[], first = 0): Side[] {
  return files.map((file, i) => {
    const name = String.fromCharCode(65 + first + i);
    try {
      return sideOf(name, file, dotenv.parse(readFileSync(file)));
    } catch (error) {
      const why = error instanceof ConfigError ? error.problems : [`unreadable (${(error as { code?: string }).code})`];
      throw new ConfigError([`bad env file ${file} (${name}), nothing was sent:`, ...why.map((p) => `  - ${p}`)]);
    }
  });
}

type Request = {
  method: 'GET' | 'HEAD' | 'OPTIONS';
  path: string;
  query: QueryPairs;
  auth: Exchange['auth'];
  headers?: Record<string, string>;
  offset?: number;
  collection?: Collection;
};

/** The spellings of a merchant's id, once per id (a calibration asks them of the mock many times). */
const spellings = new Map<string, ReturnType<typeof spellingsOf>>();
function spellingsOfId(id: string, others: string[]) {
  const key = JSON.stringify([id, others]);
  const found = spellings.get(key) ?? spellingsOf(id, others);
  spellings.set(key, found);
  return found;
}

/** The request a case makes of this target, or why it cannot make it here. */
function requestOf(s: Side, c: Case): Request | string {
  const t = s.target;
  const collection = c.collection === undefined ? undefined : s.collections.get(c.collection);
  if (c.collection !== undefined && !collection) return `${s.name} does not declare ${c.collection}`;
  if (c.access) {
    const a = c.access;
    const path = collection ? listingPath({ collection, merchant: merchantId(t, a.merchant) }) : pathOf(t, a);
    const headers = a.preflight ? { ...PREFLIGHT_HEADERS } : undefined;
    return { method: a.method ?? 'GET', path, query: requestQuery(a.query), auth: authOf(a), headers, collection };
  }
  if (c.other?.kind === 'unknown-path') {
    const path =
      c.other.path === 'status sibling'
        ? `${STATUS_PATH}es`
        : paymentsPath(t.merchants.sandbox).replace('/n1/', '/n2/');
    return { method: 'GET', path, query: [], auth: c.other.key ? asKey('test') : NO_AUTH };
  }
  if (c.other?.kind === 'spelling') {
    const { klass } = c.other;
    const others = [t.merchants.live, t.merchants.otherSandbox].filter((m): m is string => !!m);
    const spelt = spellingsOfId(t.merchants.sandbox, others).find((x) => x.klass === klass);
    if (!spelt) return `the sandbox merchant's id of ${s.name} has no spelling in ${klass}`;
    return { method: 'GET', path: spelledPaymentsPath(spelt.segment), query: [], auth: asKey('test') };
  }
  const total = s.totals.get(c.collection ?? '') ?? 0;
  const offset = c.window?.offset && place(c.window.offset, total);
  const path = collection
    ? listingPath({ collection, merchant: t.merchants.sandbox })
    : paymentsPath(t.merchants.sandbox);
  const query = c.pairs ?? requestQuery({ ...c.window, offset });
  return { method: 'GET', path, query, auth: asKey('test'), offset, collection };
}

/** What a learned shape must leave out of this answer: the target's own ids, path, key's last four, page values. */
function scrubOf(s: Side, r: Request, e: Exchange): Scrub {
  const t = s.target;
  const merchantIds = [
    ...Object.values(t.merchants),
    ...(r.path.includes('/merchant/') ? [decodedMerchant(r.path)] : []),
  ];
  const presented = presentedOf(t, r.auth);
  const search = e.url.includes('?') ? e.url.slice(e.url.indexOf('?') + 1) : '';
  return {
    status: e.status,
    method: r.method,
    path: r.path,
    basePath: new URL(t.baseURL).pathname.replace(/\/$/, ''),
    search,
    merchantIds: merchantIds.filter((m): m is string => !!m && m.length >= 3),
    ids: [...s.ids.strings],
    numbers: s.ids.numbers,
    ...(presented && presented.length > 8 ? { last4: presented.slice(-4) } : {}),
    ...(/^sk_(?:test|live)_/.test(presented ?? '') ? { prefix: presented?.slice(0, 8) } : {}),
  };
}

/** The credential a request presented (what a refusal may echo four characters of), as the header carries it. */
function presentedOf(t: Target, auth: Exchange['auth']): string | undefined {
  if (auth.kind === 'literal')
    return (
      auth.header
        .trim()
        .split(/[ \t]+/)
        .slice(1)
        .join(' ') || auth.header.trim()
    );
  if (auth.kind !== 'key') return undefined;
  const key = t.keys[auth.slot];
  return key && auth.mutation ? auth.mutation.apply(key) : key;
}

const decodedMerchant = (path: string) => {
  const raw = /\/merchant\/([^/]+)\//.exec(path)?.[1] ?? '';
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
};

/** The answer's shape, scrubbed (a refusal, the status endpoint's 2xx, a listing's 2xx envelope without its data). */
function shapeOf(s: Side, r: Request, e: Exchange): AnswerShape | undefined {
  const ok = e.status >= 200 && e.status < 300;
  const kind = !ok ? 'error' : r.path === STATUS_PATH ? 'status' : e.method === 'GET' ? 'list' : undefined;
  if (!kind) return undefined;
  const scrub = scrubOf(s, r, e);
  const type = e.headers['content-type'];
  let json = e.json;
  if (kind === 'list' && json && typeof json === 'object' && !Array.isArray(json)) {
    const { data, ...rest } = json as Record<string, unknown>;
    const env = rest as { offset?: number; limit?: number; total?: number };
    const count = Array.isArray(data) ? data.length : 0;
    Object.assign(scrub, { page: pageFacts(env, count) });
    json = rest;
  }
  const body = json !== undefined ? skeletonOf(json, scrub) : e.text ? skeletonOf(e.text, scrub) : undefined;
  const mode = kind === 'status' && r.auth.kind === 'key' ? keyModes(s.target)(r.auth.slot) : undefined;
  return { status: e.status, type, body, headers: headerSkeletons(e.headers, scrub), kind, ...(mode ? { mode } : {}) };
}

/** A page's own values (what the mock can fill an envelope field with: mock/shapes.ts pageValues). */
function pageFacts(env: { offset?: number; limit?: number; total?: number }, count: number) {
  const [offset, limit, total] = [env.offset ?? 0, env.limit ?? 0, env.total ?? 0];
  return {
    page: limit > 0 ? Math.floor(offset / limit) + 1 : 1,
    pages: limit > 0 ? Math.ceil(total / limit) : 0,
    count,
    hasMore: offset + count < total,
    nextOffset: offset + count < total ? offset + limit : null,
    prevOffset: offset > 0 ? Math.max(0, offset - limit) : null,
  };
}

/** The mock's failure kind of a refusal, read from its default error bodies (errors=json, invalid=422's shape too). */
function kindOf(e: Exchange): string | undefined {
  const j = e.json as { message?: unknown; error?: { detail?: unknown } } | undefined;
  const text = typeof j?.message === 'string' ? j.message : typeof j?.error?.detail === 'string' ? j.error.detail : '';
  return failureKind(text);
}

/** One target's answer to a case, judged (no answer — transport, target gone, budget spent — is an answer too); a
 * string when the case cannot be asked of this target. */
export async function ask(s: Side, c: Case): Promise<Answer | string> {
  const r = requestOf(s, c);
  if (typeof r === 'string') return r;
  const t = s.target;
  try {
    const e = await s.api.request(r.method, r.path, { query: r.query, auth: r.auth, headers: r.headers });
    const sent = {
      offset: r.offset,
      defaultLimit: r.collection?.defaultLimit ?? t.defaultLimit,
      max: r.collection?.maxLimit ?? MAX_LIMIT,
      keyMode: keyModes(t),
    };
    const request = redact(`${e.method} ${e.url.slice(t.baseURL.length)} (${e.authLabel})`);
    const answer: Answer = { request, aspects: judge(c, e, sent), features: featuresOf(c, e) };
    if (s.learn === 'shapes') answer.shape = shapeOf(s, r, e);
    if (s.learn === 'kinds' && e.status >= 400) answer.kind = kindOf(e);
    return answer;
  } catch (error) {
    const noAnswer = error instanceof TransportError || error instanceof TargetGone || error instanceof BudgetExhausted;
    if (!noAnswer) throw error;
    const shown = redact(error.message);
    return { request: '—', aspects: [{ aspect: 'status', rule: c.rule, key: 'no answer', shown }], features: {} };
  }
}
