/** `npm run fidelity`'s pure part: the cases (the suite's builders and arbitraries), each answer judged by the
 * suite's checks, and the per-rule table of where two targets' answers differ. */
import fc from 'fast-check';
import { expectedAccess } from '../../checks/access-oracle.ts';
import * as envelope from '../../checks/envelope.ts';
import { unknownValueViolation } from '../../checks/filter.ts';
import { accessCases, authOf } from '../../core/generate/access-cases.ts';
import * as arbitrary from '../../core/generate/arbitraries.ts';
import { oddValueArb } from '../../core/generate/odd-input.ts';
import type { AccessCase } from '../../core/model/access.ts';
import { PAYMENTS } from '../../core/model/collection.ts';
import { authLabel, KEY_VARS, type KeySlot } from '../../core/model/credentials.ts';
import type { Exchange, QueryPairs } from '../../core/model/exchange.ts';
import { describeRequest, type FieldFilter, MAX_LIMIT, type PageRequest } from '../../core/model/listing.ts';
import { ACCESS_RULES, RULES, type RuleId } from '../../core/model/rules.ts';
import { redact } from '../../core/model/secrets.ts';
import type { Target } from '../../core/model/target.ts';
import type { Violation } from '../../core/model/verdict.ts';

/** An offset kept relative: as is (0, absurd offsets), a share of `total` (inside), or a distance from its end. */
export type Offset = { abs: number } | { share: number } | { end: number };
export type CaseWindow = Omit<PageRequest, 'offset'> & { offset?: Offset };
/** `rule`: what the status informs; `needs`: variables both files must set. The test key's sandbox listing is a
 * `window` or `pairs` sent as drawn (`cap`: the limit meant, if written plainly); else `access`. */
export type Case = { id: string; rule: RuleId; label: string; needs: string[]; access?: AccessCase } & {
  window?: CaseWindow;
  pairs?: QueryPairs;
  cap?: number | 'notation';
  unknownStatus?: boolean;
};

/** The `total` windows are drawn against, before their offsets are made relative. */
export const NOMINAL = 1000;
export function relative(o: number): Offset {
  if (o === 0 || o >= arbitrary.ABSURD_OFFSET) return { abs: o };
  return o >= NOMINAL - 1 ? { end: o - NOMINAL } : { share: o / NOMINAL };
}
export function place(o: Offset, total: number): number {
  if ('abs' in o) return o.abs;
  if ('end' in o) return Math.max(0, total + o.end);
  return Math.max(0, Math.min(Math.floor(o.share * total), total - 1));
}
export function describeWindow(w: CaseWindow): string {
  const rest = describeRequest({ ...w, offset: undefined });
  const o = w.offset;
  if (o === undefined) return rest;
  const end = 'end' in o ? `total${o.end > 0 ? '+' : ''}${o.end || ''}` : '';
  const at = 'abs' in o ? o.abs : 'share' in o ? `⌊${o.share}·total⌋` : end;
  return `offset=${at}${rest.startsWith('(') ? '' : ` ${rest}`}`;
}

/** Keys and merchants in every slot: the access cases do not depend on what the two files configure. */
const EVERY_SLOT = {
  keys: { test: 'sk_test_a1', live: 'sk_live_a2', restricted: 'sk_test_a3', revoked: 'sk_test_a4', old: 'sk_live_a5' },
  merchants: { sandbox: 'sandbox', live: 'live', otherSandbox: 'otherSandbox' },
} as Target;
const MERCHANTS: Record<string, string[]> = { live: ['LIVE_MERCHANT_ID'], otherSandbox: ['OTHER_SANDBOX_MERCHANT_ID'] };

/**
 * The cases of a seed: windows (fixed edges, `pageRequestArb`, unknown statuses), over-cap limits in any notation, odd
 * values, and up to `runs` cases per rule of the access matrix. `statuses` (seen on the targets) are never "unknown".
 */
export function buildCases(seed: number, runs: number, statuses: readonly string[] = []): Case[] {
  const sample = <T>(a: fc.Arbitrary<T>, n: number, salt: number) => fc.sample(a, { seed: seed + salt, numRuns: n });
  const known = [...new Set([...(PAYMENTS.filters[0]?.named ?? []), ...statuses])];
  const field = { field: 'status', known, exactCase: true };
  const status = (value: string): FieldFilter => ({ field: 'status', value });
  const out: Omit<Case, 'id'>[] = [];
  const edges: PageRequest[] = [{}, { offset: 0, limit: MAX_LIMIT }, { offset: NOMINAL, limit: 10 }];
  const unknown = sample(arbitrary.unknownValueArb(field), Math.ceil(runs / 4), 1).map((v) => ({ filter: status(v) }));
  const drawn = sample(arbitrary.requestArb(NOMINAL, [field], ['amount', '-amount']), runs, 0);
  const windows: PageRequest[] = [...edges, ...drawn, ...unknown];
  for (const w of windows) {
    const window = { ...w, offset: w.offset === undefined ? undefined : relative(w.offset) };
    const unknownStatus = w.filter !== undefined && !known.includes(w.filter.value);
    const rule = (w.limit ?? 0) > MAX_LIMIT ? 'LIM-CAP' : unknownStatus ? 'FLT-STATUS' : 'ENV-SCHEMA';
    out.push({ rule, label: describeWindow(window), needs: [], window, unknownStatus });
  }
  for (const { notation, value, pairs } of sample(arbitrary.overCapNotationArb(), Math.ceil(runs / 3), 2)) {
    const label = `${pairs.map(([k, v]) => `${k}=${v}`).join('&')} (${notation})`;
    out.push({ rule: 'LIM-CAP', label, needs: [], pairs, cap: notation === 'plain' ? value : 'notation' });
  }
  for (const { label, pairs } of sample(oddValueArb({ filter: status(known[0] as string), sort: 'amount' }), runs, 3)) {
    out.push({ rule: 'INP-ROBUST', label, needs: [], pairs });
  }
  for (const rule of ACCESS_RULES) {
    const cases = accessCases(EVERY_SLOT, rule, PAYMENTS, status(known[0] as string));
    const examples = typeof cases === 'string' ? [] : cases.examples;
    const n = Math.min(runs, examples.length);
    for (const access of sample(fc.shuffledSubarray(examples, { minLength: n, maxLength: n }), 1, 4)[0] ?? []) {
      const { credential: cred, endpoint, merchant, query } = access;
      const verb = `${access.method ?? 'GET'}${access.preflight ? ' (CORS pre-flight)' : ''}`;
      const where = endpoint === 'status' ? `${verb} /merchant/status` : `${verb} the ${merchant} merchant's payments`;
      const q = Object.keys(query).length > 0 ? ` ${describeRequest(query)}` : '';
      const label = `${authLabel(authOf(access))} on ${where}${q}`;
      const key = cred.kind === 'key' && cred.slot !== 'test' ? [KEY_VARS[cred.slot]] : [];
      out.push({ rule, label, needs: [...key, ...((endpoint === 'list' && MERCHANTS[merchant]) || [])], access });
    }
  }
  const seen = new Set<string>();
  const unique = out.filter((c) => !seen.has(c.label) && seen.add(c.label));
  return unique.map((c, i) => ({ id: `c${String(i + 1).padStart(3, '0')}`, ...c }));
}

/** One aspect of an answer: `key` is compared, `shown` is what the tables show. The first aspect is the status. */
export type Aspect = { aspect: string; rule: RuleId; key: string; shown: string } & {
  /** A check of the suite (or the access oracle) found this aspect of the answer wrong. */
  violated?: true;
  /** The status aspect: the HTTP status received. */
  code?: number;
};
export type Sent = { offset?: number; defaultLimit: number; keyMode: (slot: KeySlot) => 'test' | 'live' };

/** Top-level field names and JSON types of a body: `{message: string, success: boolean}`, `not JSON`, `empty`. */
export function bodyShape(e: Exchange): string {
  const type = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
  if (e.json === undefined) return e.text ? 'not JSON' : 'empty';
  const fields = Object.entries(e.json as object).map(([k, v]) => `${k}: ${type(v)}`);
  return type(e.json) === 'object' ? `{${fields.sort().join(', ')}}` : type(e.json);
}

/** An answer judged by the suite's checks: status class (access cases: the code, by the access oracle), key echo,
 * a non-2xx body's shape, and for a 2xx the checks of the case's kind. */
export function judge(c: Case, e: Exchange, sent: Sent): Aspect[] {
  const out: Aspect[] = [];
  const add = (aspect: string, rule: RuleId, key: string, shown = key, extra: Partial<Aspect> = {}) =>
    out.push({ aspect, rule, key, shown: redact(shown), ...extra });
  const bad = (wrong: boolean): Partial<Aspect> => (wrong ? { violated: true } : {});
  const check = (aspect: string, rule: RuleId, v: Violation | undefined) =>
    add(aspect, rule, v ? 'violated' : 'ok', v ? `violated: ${v.received}` : 'ok', bad(v !== undefined));
  const expected = c.access && expectedAccess(c.access, sent.keyMode);
  const verdict = !expected || expected.allowed(e.status) ? '' : ` (expected ${expected.answer})`;
  const status = expected ? String(e.status) : `${Math.floor(e.status / 100)}xx`;
  add('status', c.rule, status, `${e.status}${verdict}`, { code: e.status, ...bad(verdict !== '') });
  add(
    'key echoed',
    'KEY-SECRET',
    e.keyLeak ? 'yes' : 'no',
    e.keyLeak ? `yes, in the ${e.keyLeak}` : 'no',
    bad(!!e.keyLeak),
  );
  const [w, cap] = [c.window, c.cap ?? ((c.window?.limit ?? 0) > MAX_LIMIT ? c.window?.limit : undefined)];
  if (e.status < 200 || e.status > 299) add('error body', c.rule, bodyShape(e));
  else if (c.access) return out;
  else if (!w && !cap) check('robustness', 'INP-ROBUST', envelope.robustnessViolation(e, c.label));
  else if (cap === 'notation') check('cap', 'LIM-CAP', envelope.capNotationViolation(e, c.label));
  else if (cap) check('cap', 'LIM-CAP', envelope.capViolation(e, cap));
  if (!w || e.status !== 200) return out;
  check('envelope', 'ENV-SCHEMA', envelope.envelopeViolation(e));
  check('echo', 'PAG-ECHO', envelope.echoViolation(e, { offset: sent.offset, limit: w.limit }, sent.defaultLimit));
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

export type Result = { case: Case; skipped?: string; requests?: string[]; a?: Aspect[]; b?: Aspect[] } & {
  /** Every target's judged answer, A first (a and b are the first two). */
  answers?: Aspect[][];
  differences: Difference[];
};
export type RuleRow = { rule: RuleId; compared: number; differ: number; skipped: number; first: string };

const informs = (r: Result, id: RuleId) =>
  r.case.rule === id || [...(r.a ?? []), ...(r.b ?? []), ...(r.answers ?? []).flat()].some((x) => x.rule === id);
/** Per rule: the cases that inform it (status or an aspect), how many differ or were skipped, the first difference. */
export function ruleTable(results: Result[]): RuleRow[] {
  return RULES.flatMap(({ id }) => {
    const mine = results.filter((r) => informs(r, id));
    const differing = mine.filter((r) => r.differences.some((d) => d.rule === id));
    const skipped = mine.filter((r) => r.skipped);
    const [r, d] = [differing[0], differing[0]?.differences.find((x) => x.rule === id)];
    const first = d ? `${d.aspect}: ${d.a} vs ${d.b} (${r?.case.id} ${r?.case.label})` : (skipped[0]?.skipped ?? '');
    const row = { rule: id, compared: mine.length - skipped.length, differ: differing.length, skipped: skipped.length };
    return mine.length > 0 ? [{ ...row, first }] : [];
  });
}

/** Rows as aligned text, cells cut at `max` characters. */
export function table(cells: string[][], max = 110): string {
  const cut = (s: string) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);
  const widths = cells[0]?.map((_, i) => Math.max(...cells.map((r) => cut(r[i] ?? '').length))) ?? [];
  return cells.map((r) => `  ${r.map((c, i) => cut(c).padEnd(widths[i] ?? 0)).join('  ')}`.trimEnd()).join('\n');
}
