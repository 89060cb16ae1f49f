/**
 * The watcher: every answer the worker's client gets, whatever its method, status or check, is kept as a
 * WatchedAnswer (core/model/provenance.ts) — who asked for what, the records of a listing a valid key may read (their
 * provenance), every other record-like object the answer carried (body, JSON embedded in text or HTML, headers), and
 * where it gave a key back. One file per process in the run's watch folder (like the request log); the checks of
 * specs/every-answer.spec.ts judge them all once every other check has run (checks/provenance.ts).
 *
 * Cheap by design: a listing's records are written once per provenance and process (a set lookup each); a refusal's
 * body is small; the key-leak scan runs once per answer.
 */

import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { documentedRequest, everyPageRulesOf, pageViolations } from '../../checks/page.ts';
import type { ApiClient } from '../client/http.ts';
import { shownOf } from '../generate/door-candidates.ts';
import { type Collection, PAYMENTS, runCollections } from '../model/collection.ts';
import { authLabel, keyTakenFor, modeOfKey } from '../model/credentials.ts';
import type { Shown } from '../model/doors.ts';
import { endpointOf } from '../model/endpoints.ts';
import type { Exchange } from '../model/exchange.ts';
import { envelopeOfJson } from '../model/listing.ts';
import type { Presenter, Provenance, Scope, WatchCost, WatchedAnswer } from '../model/provenance.ts';
import { redact, redactAssembled } from '../model/secrets.ts';
import type { Target } from '../model/target.ts';
import { contentOf } from './answer-content.ts';
import { collectionScope, isOwnCollectionPath, restrictedMayList } from './collection-scope.ts';

type Row = Record<string, unknown>;
const isRow = (v: unknown): v is Row => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Who presented what, from the request's credential. */
export function presenterOf(e: Pick<Exchange, 'auth'>): Presenter {
  const { auth } = e;
  if (auth.kind === 'none' || (auth.kind === 'literal' && auth.header.trim() === '')) return 'none';
  const slot = keyTakenFor(auth);
  if (slot === undefined) return 'invalid';
  return slot === 'revoked' || slot === 'old' ? 'revoked' : slot;
}

/** A merchant id as a lenient lookup may read it: percent-decoded, NFKC, lower case, no whitespace or dots at the ends. */
export function foldMerchantId(raw: string): string {
  let id = raw;
  for (let i = 0; i < 2 && id.includes('%'); i++) {
    try {
      id = decodeURIComponent(id);
    } catch {
      break;
    }
  }
  return (
    id
      .normalize('NFKC')
      // A lookup that sanitises its input drops control and format characters (NUL, a zero-width space) anywhere.
      .replace(/[\p{Cc}\p{Cf}]/gu, '')
      .toLowerCase()
      .replace(/^[\s.]+|[\s.]+$/gu, '')
  );
}

/** What a request asked for and as whom: a list of one of the run's collections (payments first), or another path. */
export function scopeOf(
  e: Pick<Exchange, 'auth' | 'method' | 'path'>,
  t: Target,
  collections: readonly Collection[] = [PAYMENTS],
): Scope {
  const presenter = presenterOf(e);
  const endpoint = endpointOf(e.path);
  const scope: Scope = { presenter, method: e.method, endpoint };
  if (presenter === 'test') scope.mode = 'test';
  else if (presenter === 'live') scope.mode = 'live';
  else if (presenter === 'restricted') scope.mode = modeOfKey(t.keys.restricted);
  if (endpoint !== 'status') Object.assign(scope, collectionScope(e.path, t, collections, foldMerchantId));
  const mayList = restrictedMayList(collections);
  if (presenter === 'restricted' && mayList.length > 0) scope.mayList = mayList;
  return scope;
}

/**
 * A page of payments asked with the documented parameters only, judged by the rules of a single page (checks/page.ts):
 * which it was judged by, and what it broke.
 */
function pageOf(e: Exchange, t: Target): WatchedAnswer['page'] {
  const q = documentedRequest(e.query);
  if (!q) return undefined;
  const rules: string[] = everyPageRulesOf(q);
  const flaws = pageViolations(e, q, t.defaultLimit)
    .filter((v) => rules.includes(v.rule))
    .map((v) => ({
      rule: v.rule,
      expected: v.expected,
      received: v.received,
    }));
  return { rules, flaws };
}

/** Keeps every answer of a worker's client for the run's provenance and key checks. */
export class AnswerWatch {
  /** Records already kept, per provenance: a record is written once per process. */
  private readonly kept = new Set<string>();
  /** The names an answer showed that this process already kept (`kind:name`): each is kept once. */
  private readonly shownKnown = new Set<string>();
  /** Milliseconds spent in the key scan of the answers seen. */
  keyScanMs = 0;
  constructor(
    private readonly target: Target,
    private readonly project: string,
    /** The run's collections: payments, then those the run's main process published. */
    private readonly collections: readonly Collection[] = runCollections(),
  ) {}

  /** What to keep of one answer. */
  see(e: Exchange): WatchedAnswer {
    const scope = scopeOf(e, this.target, this.collections);
    const check = e.sentFor?.check ?? null;
    const query = e.query.length ? `?${e.query.map(([k, v]) => `${k}=${v}`).join('&')}` : '';
    const answer: WatchedAnswer = {
      project: this.project,
      check,
      status: e.status,
      // Words and a curl line the suite wrote (a key only as its variable); with inputs the target handed out, the
      // whole line is redacted in every form below.
      request: redactAssembled(`${e.method} ${e.path}${query} (${authLabel(e.auth)})`),
      query: e.query.map(([k, v]) => [k, v]),
      curl: redactAssembled(e.curl),
      scope,
    };
    // A 2xx envelope (never `{...e}`: spreading the exchange would run its lazy key scan).
    const env = e.status >= 200 && e.status < 300 ? envelopeOfJson(e.json) : undefined;
    const learnable = env !== undefined && this.isOwnListing(e, scope);
    const holder = scope.collection && !scope.merchant ? 'account' : scope.merchant;
    if (learnable && scope.mode && holder && holder !== 'unknown') {
      const provenance: Provenance = {
        merchant: holder,
        mode: scope.mode,
        ...(scope.collection ? { collection: scope.collection } : {}),
      };
      const fresh = env.data.filter((r) => {
        const key = `${scope.collection ?? ''}/${holder}/${scope.mode}/${isRow(r) && (typeof r.id === 'string' || typeof r.id === 'number') ? JSON.stringify(r.id) : JSON.stringify(r)}`;
        if (this.kept.has(key)) return false;
        this.kept.add(key);
        return true;
      });
      if (fresh.length > 0) answer.learned = { provenance, records: fresh };
    }
    // Any 200 of its own listing, an envelope or not: a page that is no envelope is what ENV-SCHEMA is about.
    const page =
      e.status === 200 && !scope.collection && this.isOwnListing(e, scope) ? pageOf(e, this.target) : undefined;
    if (page) answer.page = page;
    const size = e.status >= 200 && e.status < 300 ? sizeOf(e.json) : undefined;
    if (size) answer.size = size;
    // A listing a valid key may read is its records (what else its envelope carries is judged like any answer's
    // content); its headers are judged like any answer's: a record written into a header of one's own listing is
    // still another listing's record.
    const { objects, texts } = contentOf(e, { body: true, ...(learnable ? { own: env as unknown as Row } : {}) });
    if (objects.length > 0) answer.objects = objects;
    if (texts.length > 0) answer.texts = texts;
    const t0 = performance.now();
    const leak = e.keyLeak;
    this.keyScanMs += performance.now() - t0;
    if (leak !== undefined) answer.keyLeak = redact(leak);
    const shows = shownOf(e, this.shownKnown);
    if (shows) answer.shows = shows;
    if (e.sent['access-control-request-method'] !== undefined) answer.preflight = true;
    return answer;
  }

  /** A valid key with the permission, on the canonical path of a merchant its mode may list: its own records. */
  private isOwnListing(e: Exchange, s: Scope): boolean {
    if (s.method !== 'GET' || (s.presenter !== 'test' && s.presenter !== 'live')) return false;
    // Inputs the spec does not document may have changed what it shows: it is judged, never learned from.
    if (e.extra) return false;
    // A key of a mode the collection lists, on its path for the merchant (sandbox merchants: test only).
    const collection = this.collections.find((c) => (c.spec ? undefined : c.name) === s.collection);
    if (!collection?.access.modes.includes(s.presenter)) return false;
    if (collection.access.scope === 'merchant' && s.mode === 'live' && s.merchant !== 'live') return false;
    return isOwnCollectionPath(e.path, this.target, collection, s);
  }
}

/** How many entries a body's `data` list holds, and its `total`, when it has such a list (any key, any query). */
function sizeOf(json: unknown): WatchedAnswer['size'] {
  if (typeof json !== 'object' || json === null) return undefined;
  const { data, total } = json as { data?: unknown; total?: unknown };
  if (!Array.isArray(data)) return undefined;
  return { records: data.length, ...(typeof total === 'number' && Number.isFinite(total) ? { total } : {}) };
}

/**
 * Watches every answer of `api` for the run: each is written as a line to this process's file in `dir` (the fixture
 * option watchDir, which both Playwright configs set). Without a folder (unit tests, scripts) nothing is watched.
 * Returns the function that stops.
 */
export function watchAnswers(api: ApiClient, target: Target, project: string, dir: string | undefined): () => void {
  if (!dir) return () => {};
  let fd: number | undefined;
  const watch = new AnswerWatch(target, project);
  const cost = { answers: 0, observeMs: 0 };
  const stop = api.observe((e) => {
    const t0 = performance.now();
    // Records and headers may hold what a faulty target echoed (a key): the line is redacted like every output. The
    // answer's own key scan (in every form) already said whether it holds one; without, a cheap pass suffices, unless
    // the request itself carried inputs the target handed out (a door check replays its headers and cookies, which
    // may hold a key it echoed, encoded): then the request's words are the target's, and every form goes.
    const seen = watch.see(e);
    const text = JSON.stringify(seen);
    const line = seen.keyLeak === undefined && e.extra === undefined ? redactAssembled(text) : redact(text);
    fd ??= openSync(join(dir, `${watchFilePrefix(project)}${process.pid}.ndjson`), 'a');
    // Synchronous, one write per answer: a worker that is replaced has written every answer it got.
    writeSync(fd, `${line}\n`);
    cost.answers += 1;
    cost.observeMs += performance.now() - t0;
  });
  return () => {
    stop();
    if (fd !== undefined) closeSync(fd);
    addWatchCost({ ...cost, keyScanMs: watch.keyScanMs }, dir);
  };
}

/** Adds to this process's account of what watching cost (a small JSON file beside its answers). */
export function addWatchCost(part: Partial<WatchCost>, dir: string | undefined): void {
  if (!dir || !existsSync(dir)) return;
  const file = join(dir, `${process.pid}.cost.json`);
  const sum = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as WatchCost) : emptyCost();
  for (const k of Object.keys(sum) as Array<keyof WatchCost>) sum[k] += part[k] ?? 0;
  writeFileSync(file, JSON.stringify(sum));
}

const emptyCost = (): WatchCost => ({ answers: 0, observeMs: 0, keyScanMs: 0, judgeMs: 0 });

/**
 * The start of the names of a project's answer files (one per process): a readable part and a hash of the name, so
 * that a project's judge reads its own files only (the proof runs some 130 projects into one folder).
 */
const watchFilePrefix = (project: string) =>
  `${project.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 60)}-${createHash('sha1').update(project).digest('hex').slice(0, 10)}.`;

/** The form of a request the door checks ask on each endpoint (core/run/doors.ts askForms): method, endpoint, who. */
export const formOf = (a: { method: string; endpoint: string; presenter: string; preflight?: boolean }) =>
  `${a.method} ${a.endpoint} ${a.preflight ? 'pre-flight' : a.presenter}`;

/**
 * The answers the run's processes kept for these projects, each line parsed where `wanted` says it may matter (a line
 * that does not parse, from a killed process, is skipped).
 */
function* watchedLines(
  projects: readonly string[],
  dir: string | undefined,
  wanted: (line: string) => boolean = () => true,
): Generator<WatchedAnswer> {
  if (!dir || !existsSync(dir)) return;
  const prefixes = projects.map(watchFilePrefix);
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ndjson') && prefixes.some((p) => f.startsWith(p)))) {
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      if (!line || !wanted(line)) continue;
      let a: WatchedAnswer;
      try {
        a = JSON.parse(line) as WatchedAnswer;
      } catch {
        continue; // a process killed mid-line
      }
      if (projects.includes(a.project)) yield a;
    }
  }
}

/**
 * What the answers the run's processes kept for these projects showed that a client could send back (the door checks'
 * names from every answer of the run), and the forms of request they answered (formOf). A line with a listing's records
 * (a valid key's GET: a form the doors do not ask) and nothing shown is not parsed.
 */
export function readDoorFacts(
  projects: readonly string[],
  dir: string | undefined,
): { shown: Shown[]; forms: Set<string> } {
  const out = { shown: [] as Shown[], forms: new Set<string>() };
  const wanted = (line: string) => !line.includes('"learned":') || line.includes('"shows":');
  for (const a of watchedLines(projects, dir, wanted)) {
    if (a.shows) out.shown.push(a.shows);
    out.forms.add(formOf({ ...a.scope, preflight: a.preflight }));
  }
  return out;
}

/** Every answer the run's processes kept for these projects. */
export function readWatchedAnswers(projects: readonly string[], dir: string | undefined): WatchedAnswer[] {
  return [...watchedLines(projects, dir)];
}
