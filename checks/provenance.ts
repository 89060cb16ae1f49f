/**
 * Record provenance over every answer of the run (§1 "Objects created in one mode are not accessible from the
 * other", §5, §7; reading "A refusal reveals nothing"): a record read on one listing may appear only in answers to
 * requests that may see that listing. Pure: `(watched answers, rule) → violations`.
 *
 * Records are matched as records, never as substrings: an object in an answer is a learned record when it has the
 * record's `id`, no field of the record with another value, and more of its fields with the same value — two (one
 * when the id is a string of 8 characters or more) — not counting values the request itself holds (an error may
 * echo the merchant id or the path). An id alone, a small integer beside an echoed merchant id, is no match. A
 * record without an id matches by its whole content.
 */
import type { Holder, Provenance, Scope, WatchedAnswer } from '../core/model/provenance.ts';
import type { EveryAnswerRule } from '../core/model/rules.ts';
import type { Violation } from '../core/model/verdict.ts';

/** The rules whose boundary a record can cross. */
const SANDBOXES: readonly Holder[] = ['sandbox', 'otherSandbox'];

/**
 * The rule an answer breaks by showing a record of provenance `p` to a request of scope `s`; undefined when the
 * request may see it. Without a valid key nothing may be seen (the rule the access oracle gives that request); the
 * restricted key may see no payment; a valid key sees only its own mode's records, and on a merchant's listing only
 * that merchant's (a merchant id the configuration does not know may name any merchant of the account).
 */
export function crossing(s: Scope, p: Provenance): EveryAnswerRule | undefined {
  const unknownList = s.endpoint === 'list' && s.merchant === 'unknown';
  if (s.presenter === 'none') return 'AUTH-MISSING';
  if (s.presenter === 'invalid') return unknownList ? 'AUTH-FIRST' : 'AUTH-INVALID';
  if (s.presenter === 'revoked') return unknownList ? 'AUTH-FIRST' : 'AUTH-REVOKED';
  // The restricted key may list another collection where the collections file says so (or does not say).
  if (s.presenter === 'restricted' && !s.mayList?.includes(p.collection ?? '')) return 'AUTH-FORBIDDEN';
  if (s.mode !== p.mode) {
    const onSandbox = s.endpoint === 'list' && SANDBOXES.includes(s.merchant as Holder);
    return s.mode === 'live' && onSandbox ? 'MODE-LIVE-SANDBOX' : 'MODE-ISOLATION';
  }
  const merchantList = s.endpoint === 'list' && s.merchant !== 'unknown' && s.merchant !== undefined;
  if (merchantList && p.merchant !== 'account' && s.merchant !== p.merchant) return 'MER-ISOLATION';
  return undefined;
}

type Row = Record<string, unknown>;
const isRow = (v: unknown): v is Row => typeof v === 'object' && v !== null && !Array.isArray(v);
const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/** The identity key of a record: its `id` (typed: 7 and "7" differ), or its whole content in key order. */
function identityKey(r: Row): string {
  const id = r.id;
  if (typeof id === 'string' || typeof id === 'number') return `id:${JSON.stringify(id)}`;
  return `json:${JSON.stringify(Object.fromEntries(Object.entries(r).sort(([a], [b]) => a.localeCompare(b))))}`;
}

/**
 * Whether object `o` is record `r` (same identity key): see the module comment. `echoed` says which values the
 * request held (they are no evidence).
 */
export function isRecord(o: Row, r: Row, echoed: (value: unknown) => boolean = () => false): boolean {
  if (!('id' in r)) return Object.keys(r).length >= 3 && Object.entries(r).every(([k, v]) => k in o && same(o[k], v));
  let agreeing = 0;
  for (const [k, v] of Object.entries(r)) {
    if (k === 'id' || !(k in o)) continue;
    if (!same(o[k], v)) return false;
    if (!echoed(v)) agreeing += 1;
  }
  const others = Object.keys(r).length - 1;
  const needed = typeof r.id === 'string' && r.id.length >= 8 ? 1 : 2;
  return others === 0 ? Object.keys(o).length === 1 : agreeing >= Math.min(needed, others);
}

/** The values a request holds in its path or query (a merchant id, a status): an answer may echo them. */
export function echoedBy(request: string): (value: unknown) => boolean {
  return (value) => {
    const text = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
    return (
      text !== undefined && text.length > 0 && (request.includes(text) || request.includes(encodeURIComponent(text)))
    );
  };
}

/**
 * A learned record: the record, its collection (absent: payments), each provenance it was read under, and the first
 * answer that showed it there. Records of two collections are never one record, whatever their ids.
 */
interface TracedRecord {
  record: Row;
  collection?: string;
  seen: Map<string, { provenance: Provenance; answer: WatchedAnswer }>;
}

const provenanceKey = (p: Provenance) => `${p.collection ? `${p.collection}:` : ''}${p.merchant}/${p.mode}`;
const describeProvenance = (p: Provenance) =>
  p.merchant === 'account'
    ? `the ${p.mode}-mode ${p.collection} listing of the account`
    : `the ${p.mode}-mode ${p.collection ? `${p.collection} ` : ''}listing of the ${p.merchant === 'otherSandbox' ? 'other sandbox' : p.merchant} merchant`;

/** Whether `o` holds every field of `r` with the same value: a record of another collection shown whole. */
const isWhole = (o: Row, r: Row) =>
  Object.keys(r).length >= 2 && Object.entries(r).every(([k, v]) => k in o && same(o[k], v));

const indexes = new WeakMap<readonly WatchedAnswer[], Map<string, TracedRecord[]>>();

/** Every learned record by identity key (records that share an id but differ are kept apart), once per answer list. */
function learnedRecords(answers: readonly WatchedAnswer[]): Map<string, TracedRecord[]> {
  const known = indexes.get(answers);
  if (known) return known;
  const index = new Map<string, TracedRecord[]>();
  indexes.set(answers, index);
  for (const a of answers) {
    if (!a.learned) continue;
    const { provenance } = a.learned;
    for (const record of a.learned.records) {
      if (!isRow(record)) continue;
      const key = identityKey(record);
      const bucket = index.get(key) ?? [];
      index.set(key, bucket);
      let entry = bucket.find((l) => l.collection === provenance.collection && isRecord(record, l.record));
      if (!entry) {
        entry = { record, ...(provenance.collection ? { collection: provenance.collection } : {}), seen: new Map() };
        bucket.push(entry);
      }
      if (!entry.seen.has(provenanceKey(provenance)))
        entry.seen.set(provenanceKey(provenance), { provenance, answer: a });
    }
  }
  return index;
}

/** Text around a record's id that is read for its other fields. */
const WINDOW = 400;

/** TracedRecord records by the id a text may show whole: a string id of 8 characters or more, or an integer id. */
function byIdToken(index: Map<string, TracedRecord[]>): Map<string, TracedRecord[]> {
  const out = new Map<string, TracedRecord[]>();
  for (const bucket of index.values()) {
    for (const l of bucket) {
      const id = l.record.id;
      if (!((typeof id === 'string' && id.length >= 8) || Number.isInteger(id))) continue;
      const key = String(id);
      out.set(key, [...(out.get(key) ?? []), l]);
    }
  }
  return out;
}

/** Whether a value of a record stands in `text` whole (a number not inside a longer one, a string of 3+ characters). */
function standsIn(text: string, value: unknown): boolean {
  if (typeof value === 'number')
    return new RegExp(`(?<![\\d.])${String(value).replace('.', '\\.')}(?![\\d])`).test(text);
  return typeof value === 'string' && value.length >= 3 && text.includes(value);
}

/**
 * Whether `window`, around a record's id, writes the record out as a run of fields: more of its values standing whole
 * beside the id, not counting values the request holds — one for a string id of 8 characters or more, three (one a
 * string of 12 or more, a timestamp say, not a status) for an integer id, which a text may hold by chance.
 */
function runOfFields(window: string, r: Row, echoed: (value: unknown) => boolean): boolean {
  const values = Object.entries(r)
    .filter(([k, v]) => k !== 'id' && !echoed(v) && standsIn(window, v))
    .map(([, v]) => v);
  if (typeof r.id === 'string') return values.length >= 1;
  return values.length >= 3 && values.some((v) => typeof v === 'string' && v.length >= 12);
}

/** The learned records a text writes out (each once), with the excerpt that shows it. */
function recordsInText(
  text: string,
  ids: Map<string, TracedRecord[]>,
  echoed: (value: unknown) => boolean,
): Array<{ learned: TracedRecord; excerpt: string }> {
  const found = new Map<TracedRecord, string>();
  for (const m of text.matchAll(/[\w.:-]+/g)) {
    for (const token of new Set([m[0], m[0].replace(/[.:-]+$/, '')])) {
      for (const l of ids.get(token) ?? []) {
        if (found.has(l)) continue;
        const from = Math.max(0, m.index - WINDOW);
        const window = text.slice(from, m.index + m[0].length + WINDOW);
        if (runOfFields(window, l.record, echoed)) {
          const around = text.slice(Math.max(0, m.index - 40), m.index + 120).replace(/\s+/g, ' ');
          found.set(l, around);
        }
      }
    }
  }
  return [...found].map(([learned, excerpt]) => ({ learned, excerpt }));
}

/** A learned record that an answer showed, and how, in words. */
interface Sighting {
  answer: WatchedAnswer;
  learned: TracedRecord;
  shown: string;
}

const sightings = new WeakMap<readonly WatchedAnswer[], Sighting[]>();

/** Every learned record each answer showed — as an object, or written out as text — once per answer list. */
function sightingsOf(answers: readonly WatchedAnswer[]): Sighting[] {
  const known = sightings.get(answers);
  if (known) return known;
  const index = learnedRecords(answers);
  const ids = byIdToken(index);
  const out: Sighting[] = [];
  for (const answer of answers) {
    const echoed = echoedBy(answer.request);
    // A record of the collection the request names (payments, for any other path) matches as a record; another
    // collection's only whole: a refund that shares a payment's id is not that payment.
    const own = answer.scope.collection;
    const matches = (value: Row, l: TracedRecord) =>
      l.collection === own ? isRecord(value, l.record, echoed) : isWhole(value, l.record);
    // One sighting of a record per answer: the first place it was found (an answer read in several decodings shows
    // one record several times).
    const shownHere = new Set<TracedRecord>();
    for (const { where, value } of answer.objects ?? []) {
      const learned = index.get(identityKey(value))?.find((l) => matches(value, l));
      if (!learned || shownHere.has(learned)) continue;
      shownHere.add(learned);
      out.push({ answer, learned, shown: `carried record ${short(value)} in ${where}` });
    }
    for (const { where, text } of answer.texts ?? []) {
      // A run of fields is read as a record of the request's own collection only.
      for (const { learned, excerpt } of recordsInText(text, ids, echoed).filter((r) => r.learned.collection === own)) {
        if (shownHere.has(learned)) continue;
        shownHere.add(learned);
        out.push({
          answer,
          learned,
          shown: `wrote record ${short(learned.record)} out as text in ${where}: "…${excerpt}…"`,
        });
      }
    }
  }
  sightings.set(answers, out);
  return out;
}

/**
 * How many learned records each answer showed beside its own page's (as objects or written out as text: a CSV or XML
 * export, a page in a header): the records an answer carries in any representation.
 */
export function recordsShown(answers: readonly WatchedAnswer[]): Map<WatchedAnswer, number> {
  const counts = new Map<WatchedAnswer, number>();
  for (const { answer } of sightingsOf(answers)) counts.set(answer, (counts.get(answer) ?? 0) + 1);
  return counts;
}

/** What the judgment saw: records learned, and answers judged per presenter. */
interface ProvenanceStats {
  records: number;
  answers: number;
  byPresenter: Record<string, number>;
  /** The listings (merchant/mode) records were read on. */
  listings: string[];
}

const short = (r: Row) => {
  const s = JSON.stringify(r);
  return s.length > 120 ? `${s.slice(0, 120)}…` : s;
};

/**
 * Every violation of `rule` over the answers: a record shown to a request that may not see it (in any answer, of any
 * status), and, for the isolation rules, one record read on two listings that share none.
 */
/** The isolation rule two listings of one record cross: two modes, or one mode and two merchants; else none. */
function isolationCrossed(a: Provenance, b: Provenance): EveryAnswerRule | undefined {
  if (a.mode !== b.mode) return 'MODE-ISOLATION';
  const merchants = a.merchant !== 'account' && b.merchant !== 'account';
  return merchants && a.merchant !== b.merchant ? 'MER-ISOLATION' : undefined;
}

export function provenanceViolations(
  answers: readonly WatchedAnswer[],
  rule: EveryAnswerRule,
  /** Only the violations about this collection's records (undefined: payments'); all, when not given. */
  of?: { collection: string | undefined },
): { violations: Violation[]; stats: ProvenanceStats } {
  const mine = (l: TracedRecord) => of === undefined || l.collection === of.collection;
  const index = learnedRecords(answers);
  const violations: Violation[] = [];
  const byPresenter: Record<string, number> = {};
  let records = 0;
  const listings = new Set<string>();
  for (const bucket of index.values()) {
    for (const l of bucket.filter(mine)) {
      records += 1;
      const seen = [...l.seen.values()];
      for (const s of seen) listings.add(provenanceKey(s.provenance));
      // The first two listings of one record that share none across this rule's boundary: two modes (MODE-ISOLATION),
      // or one mode and two merchants (MER-ISOLATION). Each rule looks for its own pair: a record on three listings
      // may cross both boundaries.
      const pair = pairAcross(seen, rule);
      if (!pair) continue;
      const [a, b] = pair;
      violations.push({
        rule,
        expected: `no record on both ${describeProvenance(a.provenance)} and ${describeProvenance(b.provenance)}`,
        received: `record ${short(l.record)} was listed by ${a.answer.request} and by ${b.answer.request}`,
        reproduction: [a.answer.curl, b.answer.curl],
      });
    }
  }
  for (const answer of answers) byPresenter[answer.scope.presenter] = (byPresenter[answer.scope.presenter] ?? 0) + 1;
  for (const { answer, learned, shown } of sightingsOf(answers)) {
    if (!mine(learned)) continue;
    const crossed = [...learned.seen.values()].find((s) => crossing(answer.scope, s.provenance) === rule);
    if (!crossed) continue;
    const refusal = answer.status >= 400;
    violations.push({
      rule,
      expected: `no record of ${describeProvenance(crossed.provenance)} in the answer to ${answer.request}${refusal ? ' (a refusal reveals nothing)' : ''}`,
      received: `HTTP ${answer.status}${refusal ? ' (a refusal)' : ''} ${shown} (first read on ${describeProvenance(crossed.provenance)} by ${crossed.answer.request})`,
      reproduction: [answer.curl, crossed.answer.curl],
    });
  }
  if (rule === 'MER-ISOLATION' || rule === 'MODE-ISOLATION') violations.push(...mixedAnswers(answers, rule, mine));
  return { violations, stats: { records, answers: answers.length, byPresenter, listings: [...listings].sort() } };
}

/**
 * One answer that holds records of two listings an isolation rule keeps apart — two merchants' (MER-ISOLATION), two
 * modes' (MODE-ISOLATION) —, whatever the request's scope: no listing of one merchant and one mode holds both, however
 * its merchant id was spelled (a lookup that takes `%` for a pattern, an id no merchant has). Records of an account-wide
 * listing belong to no one merchant.
 */
function mixedAnswers(
  answers: readonly WatchedAnswer[],
  rule: 'MER-ISOLATION' | 'MODE-ISOLATION',
  mine: (l: TracedRecord) => boolean,
): Violation[] {
  // Each answer's records, one per listing they were first read on (the pairs to look at are the listings').
  const shown = new Map<WatchedAnswer, Map<string, { learned: TracedRecord; provenance: Provenance }>>();
  for (const { answer, learned } of sightingsOf(answers)) {
    const [first] = learned.seen.values();
    if (!first || !mine(learned) || first.provenance.merchant === 'account') continue;
    const listings = shown.get(answer) ?? new Map();
    shown.set(answer, listings);
    const key = provenanceKey(first.provenance);
    if (!listings.has(key)) listings.set(key, { learned, provenance: first.provenance });
  }
  const out: Violation[] = [];
  for (const [answer, listings] of shown) {
    const pair = pairAcross([...listings.values()], rule);
    if (!pair) continue;
    const [a, b] = pair;
    out.push({
      rule,
      expected: `no answer holding records of both ${describeProvenance(a.provenance)} and ${describeProvenance(b.provenance)}: a listing is one merchant's, in one mode`,
      received: `HTTP ${answer.status} to ${answer.request} held record ${short(a.learned.record)} and record ${short(b.learned.record)}`,
      reproduction: [answer.curl],
    });
  }
  return out;
}

/** The first two of `items` whose listings `rule` keeps apart (every pair looked at), or undefined. */
function pairAcross<T extends { provenance: Provenance }>(
  items: readonly T[],
  rule: EveryAnswerRule,
): [T, T] | undefined {
  for (const [i, a] of items.entries()) {
    const b = items.slice(i + 1).find((x) => isolationCrossed(a.provenance, x.provenance) === rule);
    if (b) return [a, b];
  }
  return undefined;
}

/** KEY-SECRET over every answer: each answer that gave a key back (on a collection's path only, when `of` names it). */
export function keyLeakViolations(
  answers: readonly WatchedAnswer[],
  of?: { collection: string | undefined },
): Violation[] {
  return answers
    .filter((a) => a.keyLeak !== undefined && (of === undefined || a.scope.collection === of.collection))
    .map((a) => ({
      rule: 'KEY-SECRET' as const,
      expected: `no key, whole, encoded or most of it, in the answer to ${a.request}`,
      received: `HTTP ${a.status} gave a key back: ${a.keyLeak}`,
      reproduction: [a.curl],
    }));
}

/**
 * Why the answers could not show a crossing of `rule`, or undefined when they could: the isolation rules need records
 * on both sides of their boundary (two modes, two merchants), the others records of any listing and answers to the
 * requests the rule is about.
 */
export function unexercised(rule: EveryAnswerRule, stats: ProvenanceStats, asked: number): string | undefined {
  // A listing `refunds:sandbox/test` is the sandbox merchant's too, in test mode.
  const bare = stats.listings.map((l) => l.replace(/^[^:/]+:/, ''));
  const modes = new Set(bare.map((l) => l.split('/')[1]));
  const merchants = new Set(bare.map((l) => l.split('/')[0]).filter((m) => m !== 'account'));
  if (stats.records === 0) return 'no listing the configuration can read held a record: nothing to trace';
  if (rule === 'MODE-ISOLATION' && modes.size < 2)
    return `records of one mode only were read (${stats.listings.join(', ')}): no record of the other mode could cross`;
  if (rule === 'MER-ISOLATION' && merchants.size < 2)
    return `records of one merchant only were read (${stats.listings.join(', ')}): no other merchant's record could cross`;
  if (rule === 'MODE-LIVE-SANDBOX' && !bare.some((l) => l.endsWith('/test') && !l.startsWith('live/')))
    return 'no sandbox record was read: none could reach the live key';
  if (asked === 0) return 'no answer of the run came to the requests this rule is about';
  return undefined;
}
