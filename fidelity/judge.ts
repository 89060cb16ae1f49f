/**
 * Each answer judged by the suite's own checks and reduced to aspects (its status, whether it gave a key back, a
 * refusal's body shape, the envelope, echo, page size, cap, unknown status and robustness checks), and two answers
 * compared aspect by aspect. A difference is a legal choice when both answers are within the rules, and breaks a rule
 * when a check of the suite finds one of them wrong.
 */
import { expectedAccess } from '../checks/access-oracle.ts';
import * as envelope from '../checks/envelope.ts';
import { unknownValueViolation } from '../checks/filter.ts';
import { PAYMENTS } from '../core/model/collection.ts';
import type { KeySlot } from '../core/model/credentials.ts';
import type { Exchange } from '../core/model/exchange.ts';
import { MAX_LIMIT } from '../core/model/listing.ts';
import type { RuleId } from '../core/model/rules.ts';
import { redact } from '../core/model/secrets.ts';
import type { Violation } from '../core/model/verdict.ts';
import type { Case } from './cases.ts';

/** One aspect of an answer: `key` is compared, `shown` is what the tables show. The first aspect is the status. */
export type Aspect = { aspect: string; rule: RuleId; key: string; shown: string } & {
  /** A check of the suite (or the access oracle) found this aspect of the answer wrong. */
  violated?: true;
  /** The status aspect: the HTTP status received. */
  code?: number;
};
/** What was sent, as the checks need it: the offset placed, the listing's default and maximum limit, key modes. */
type Sent = { offset?: number; defaultLimit: number; max?: number; keyMode: (slot: KeySlot) => 'test' | 'live' };

/** Top-level field names and JSON types of a body: `{message: string, success: boolean}`, `not JSON`, `empty`. */
export function bodyShape(e: Pick<Exchange, 'json' | 'text'>): string {
  const type = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
  if (e.json === undefined) return e.text ? 'not JSON' : 'empty';
  const fields = Object.entries(e.json as object).map(([k, v]) => `${k}: ${type(v)}`);
  return type(e.json) === 'object' ? `{${fields.sort().join(', ')}}` : type(e.json);
}

/** An answer judged by the suite's checks: status class (access cases: the code, by the access oracle; a 5xx is never
 * legal), key echo, a non-2xx body's shape, and for a 2xx the checks of the case's kind. */
export function judge(c: Case, e: Exchange, sent: Sent): Aspect[] {
  const out: Aspect[] = [];
  const add = (aspect: string, rule: RuleId, key: string, shown = key, extra: Partial<Aspect> = {}) =>
    out.push({ aspect, rule, key, shown: redact(shown), ...extra });
  const bad = (wrong: boolean): Partial<Aspect> => (wrong ? { violated: true } : {});
  const check = (aspect: string, rule: RuleId, v: Violation | undefined) =>
    add(aspect, rule, v ? 'violated' : 'ok', v ? `violated: ${v.received}` : 'ok', bad(v !== undefined));
  const expected = c.access && expectedAccess(c.access, sent.keyMode);
  const verdict = !expected
    ? e.status >= 500
      ? ' (a 5xx is never legal)'
      : ''
    : expected.allowed(e.status)
      ? ''
      : ` (expected ${expected.answer})`;
  const status = expected ? String(e.status) : `${Math.floor(e.status / 100)}xx`;
  add('status', c.rule, status, `${e.status}${verdict}`, { code: e.status, ...bad(verdict !== '') });
  add('key echoed', 'KEY-SECRET', e.keyLeak ? 'yes' : 'no', e.keyLeak ? `yes, in the ${e.keyLeak}` : 'no', {
    ...bad(!!e.keyLeak),
  });
  const max = sent.max ?? MAX_LIMIT;
  const [w, cap] = [c.window, c.cap ?? ((c.window?.limit ?? 0) > max ? c.window?.limit : undefined)];
  const records = c.collection ? {} : PAYMENTS;
  if (e.status < 200 || e.status > 299) add('error body', c.rule, bodyShape(e));
  else if (c.access || c.other) return out;
  else if (!w && !cap) check('robustness', 'INP-ROBUST', envelope.robustnessViolation(e, c.label, records));
  else if (cap === 'notation') check('cap', 'LIM-CAP', envelope.capNotationViolation(e, c.label, max));
  else if (cap) check('cap', 'LIM-CAP', envelope.capViolation(e, cap, max));
  if (!w || e.status !== 200) return out;
  check('envelope', 'ENV-SCHEMA', envelope.envelopeViolation(e, records));
  const echo = { offset: sent.offset, limit: w.limit };
  check('echo', 'PAG-ECHO', envelope.echoViolation(e, echo, sent.defaultLimit, max));
  check('page size', 'PAG-SIZE', envelope.sizeViolation(e));
  if (c.unknownStatus && w.filter)
    check('unknown status', 'FLT-STATUS', unknownValueViolation(e, w.filter, 'FLT-STATUS'));
  return out;
}

/** `target`: with more than two targets, the one (B, C, …) whose answer differs from A's. */
export type Difference = { rule: RuleId; aspect: string; a: string; b: string; target?: string };
/** Where two answers differ; when their status differs, only the status and key echo (the rest would repeat it). */
export function compare(a: Aspect[], b: Aspect[]): Difference[] {
  const [A, B] = [new Map(a.map((x) => [x.aspect, x])), new Map(b.map((x) => [x.aspect, x]))];
  const same = A.get('status')?.key === B.get('status')?.key;
  const names = [...(same ? new Set([...A.keys(), ...B.keys()]) : ['status', 'key echoed'])];
  return names.flatMap((aspect) => {
    const [x, y] = [A.get(aspect), B.get(aspect)];
    if (x?.key === y?.key) return [];
    return [{ rule: (x ?? y)?.rule as RuleId, aspect, a: x?.shown ?? '—', b: y?.shown ?? '—' }];
  });
}

/** The rules an answer breaks, by the suite's checks (none: it is within the rules). */
const brokenRules = (aspects: readonly Aspect[]): RuleId[] => [
  ...new Set(aspects.filter((x) => x.violated).map((x) => x.rule)),
];

/**
 * What a case's differences are: a legal choice (every answer within the rules: both are right), or a rule broken —
 * by which target, which rules. Undefined when the answers are alike.
 */
export function differenceKind(
  answers: ReadonlyArray<{ name: string; aspects: readonly Aspect[] }>,
  differing: boolean,
): { kind: 'legal choice' | 'breaks a rule'; breaks: string[] } | undefined {
  if (!differing) return undefined;
  const breaks = answers.flatMap(({ name, aspects }) => {
    const rules = brokenRules(aspects);
    return rules.length ? [`${name} breaks ${rules.join(', ')}`] : [];
  });
  return { kind: breaks.length ? 'breaks a rule' : 'legal choice', breaks };
}
