/**
 * The comparison: load both env files, learn each target's `total`, send the one case list to both targets
 * (each through its own ApiClient: GET only, its own budget and pace, both targets in parallel), observe the
 * shape of every response, and compare them case by case and rule by rule.
 */
import type { Target } from '../../fixtures/config.ts';
import {
  ApiClient,
  type Auth,
  asKey,
  authLabel,
  BudgetExhausted,
  buildURL,
  type KeyMutation,
  NO_AUTH,
  TransportError,
} from '../../fixtures/http.ts';
import {
  BASIC_CREDENTIALS,
  keyMutations,
  neverCreatedId,
  unknownKeyOfValidFormat,
} from '../../fixtures/key-mutations.ts';
import { fetchPage, paymentsPath, readEnvelope, STATUS_PATH } from '../../fixtures/listing.ts';
import { RULES, type RuleId } from '../../fixtures/rules.ts';
import { redact } from '../../fixtures/secrets.ts';
import { BASIC, buildCases, type Case, queryOf } from './cases.ts';
import { type LoadedTarget, loadTargets, type Side, sets } from './load.ts';
import { compare, type Difference, noAnswer, type Observation, observe } from './shape.ts';

export interface FidelityOptions {
  fileA: string;
  fileB: string;
  /** Seed of the case list (default 1). */
  seed?: number;
  /** Sampled windows and odd inputs (default 12). */
  runs?: number;
}

export interface TargetInfo {
  side: Side;
  file: string;
  baseURL: string;
  /** `total` of the sandbox listing (test key), learned first; relative offsets resolve against it. */
  total: number;
  /** What the first request saw, in a few words. */
  probe: string;
  declaredDefaultLimit: number;
  requests: number;
}

export interface CaseResult {
  id: string;
  rule: RuleId;
  kind: Case['kind'];
  label: string;
  /** Why the case was not sent: the variables it needs, or another reason. */
  skipped?: string;
  /** Variables the case needs that a file does not set. */
  missing?: string[];
  compared: boolean;
  identical: boolean;
  a?: Observation;
  b?: Observation;
  differences: Difference[];
}

export type RuleVerdict = 'same' | 'differs' | 'skipped' | 'not compared';

export interface RuleSummary {
  id: RuleId;
  level: string;
  verdict: RuleVerdict;
  /** `same`, `differs (3 cases)`, `skipped (needs API_LIVE_KEY)`, `not compared`. */
  text: string;
  /** Cases compared / differing / skipped that inform the rule. */
  compared: number;
  differing: number;
  skipped: number;
  needs: string[];
  /** Why a rule is not compared here, when it is not. */
  note?: string;
}

export interface Choice {
  choice: string;
  rule: RuleId;
  a: string;
  b: string;
}

export interface FidelityReport {
  seed: number;
  runs: number;
  targets: { A: TargetInfo; B: TargetInfo };
  cases: CaseResult[];
  /** Every difference, with its case. */
  differences: Array<Difference & { case: string; label: string }>;
  rules: RuleSummary[];
  choices: Choice[];
  summary: { cases: number; compared: number; identical: number; skipped: number; notCompared: number };
  /** `fidelity: N/M cases identical in shape`. */
  fidelity: string;
}

/** A target that does not answer the first request at all: the comparison cannot run (exit 1). */
export class TargetUnreachable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TargetUnreachable';
  }
}

/** What each target chose where the spec allows several answers: which cases, and what to read from each. */
const CHOICES: Array<{
  choice: string;
  rule: RuleId;
  pick: (c: CaseResult) => boolean;
  value?: (o: Observation) => string;
  tally?: boolean;
}> = [
  { choice: 'limit over 100', rule: 'LIM-CAP', pick: (c) => c.kind === 'over-cap' },
  {
    choice: 'default limit (limit omitted)',
    rule: 'PAG-DEFAULT',
    pick: (c) => !!c.a?.aspects.some((x) => x.name === 'limit echo' && x.rule === 'PAG-DEFAULT'),
    value: (o) => o.aspects.find((x) => x.name === 'limit echo')?.key ?? o.behaviour,
  },
  { choice: 'unknown filter[status]', rule: 'FLT-STATUS', pick: (c) => c.kind === 'unknown-status' },
  {
    choice: 'odd query values (status codes)',
    rule: 'INP-ROBUST',
    pick: (c) => c.kind === 'odd',
    value: (o) => String(o.status ?? o.behaviour),
    tally: true,
  },
  {
    choice: 'valid key, unknown merchant',
    rule: 'ADV-UNKNOWN-MERCHANT',
    pick: (c) => c.rule === 'ADV-UNKNOWN-MERCHANT',
  },
  { choice: 'error body (no Authorization header)', rule: 'AUTH-MISSING', pick: (c) => c.rule === 'AUTH-MISSING' },
];

function merchantFor(c: Case, t: Target): string {
  const known = [t.merchants.sandbox, t.merchants.live, t.merchants.otherSandbox].filter((m): m is string => !!m);
  if (c.merchant === 'live') return t.merchants.live ?? '';
  if (c.merchant === 'unknown') return neverCreatedId(t.merchants.sandbox, 4, known);
  return t.merchants.sandbox;
}

function authFor(c: Case, t: Target): Auth {
  if (c.auth.kind === 'none') return NO_AUTH;
  const { slot, scheme, mutation: name } = c.auth;
  if (name === undefined) return asKey(slot, scheme === undefined ? {} : { scheme });
  let mutation: KeyMutation;
  if (name === BASIC) mutation = BASIC_CREDENTIALS;
  else {
    const key = t.keys[slot] ?? '';
    const issued = Object.values(t.keys).filter((k): k is string => typeof k === 'string');
    mutation = keyMutations(key, issued).find((m) => m.name === name) ?? unknownKeyOfValidFormat(key);
  }
  return asKey(slot, scheme === undefined ? { mutation } : { mutation, scheme });
}

/** Learns the `total` of the sandbox listing (test key, offset 0, limit 100) and the statuses on that page. */
async function probe(api: ApiClient, lt: LoadedTarget): Promise<{ total: number; probe: string; statuses: string[] }> {
  try {
    const e = await fetchPage(
      api,
      { merchant: lt.target.merchants.sandbox, auth: asKey('test') },
      { offset: 0, limit: 100 },
    );
    const env = readEnvelope(e);
    if (!env)
      return {
        total: 0,
        probe: `HTTP ${e.status}, no usable envelope: relative offsets resolve against total 0`,
        statuses: [],
      };
    const statuses = env.data
      .map((r) => (r as { status?: unknown } | null)?.status)
      .filter((s): s is string => typeof s === 'string');
    return { total: env.total, probe: `total ${env.total}`, statuses: [...new Set(statuses)] };
  } catch (error) {
    if (error instanceof TransportError || error instanceof BudgetExhausted) {
      throw new TargetUnreachable(redact(`${lt.side} (${lt.file}): ${error.message}`));
    }
    throw error;
  }
}

async function sendAll(
  api: ApiClient,
  lt: LoadedTarget,
  cases: Case[],
  total: number,
): Promise<Map<string, Observation>> {
  const t = lt.target;
  const out = new Map<string, Observation>();
  let exhausted: string | undefined;
  for (const c of cases) {
    const path = c.path === 'status' ? STATUS_PATH : paymentsPath(merchantFor(c, t));
    const auth = authFor(c, t);
    const q = queryOf(c, total, t.defaultLimit);
    const request = redact(`GET ${buildURL('', path, q.pairs)} (${authLabel(auth)})`);
    if (exhausted) {
      out.set(c.id, noAnswer(c, request, exhausted, true));
      continue;
    }
    try {
      const e = await api.get(path, { query: q.pairs, auth });
      const sent =
        q.offset === undefined
          ? { total, declaredDefaultLimit: t.defaultLimit }
          : { offset: q.offset, total, declaredDefaultLimit: t.defaultLimit };
      out.set(c.id, observe(c, sent, e));
    } catch (error) {
      if (error instanceof BudgetExhausted) {
        exhausted = error.message;
        out.set(c.id, noAnswer(c, request, exhausted, true));
      } else if (error instanceof TransportError) out.set(c.id, noAnswer(c, request, error.message, false));
      else throw error;
    }
  }
  return out;
}

const WHOLE_SET = 'a whole-set rule: compare the verdicts with --suite';
const NOT_COMPARED: Partial<Record<RuleId, string>> = {
  'PAG-TOTAL': WHOLE_SET,
  'PAG-PARTITION': WHOLE_SET,
  'FLT-BEFORE-PAGE': WHOLE_SET,
  'MODE-ISOLATION': WHOLE_SET,
  'MER-ISOLATION': WHOLE_SET,
  'CFG-KEYS': 'checked when the files were loaded: both pass',
};

function summarise(cases: CaseResult[]): RuleSummary[] {
  return RULES.map((r) => {
    const informs = (c: CaseResult) =>
      c.rule === r.id || [...(c.a?.aspects ?? []), ...(c.b?.aspects ?? [])].some((x) => x.rule === r.id);
    const mine = cases.filter(informs);
    const compared = mine.filter((c) => c.compared).length;
    const differing = mine.filter((c) => c.differences.some((d) => d.rule === r.id)).length;
    const skippedCases = mine.filter((c) => c.skipped);
    const needs = [...new Set(skippedCases.flatMap((c) => c.missing ?? []))];
    let verdict: RuleVerdict;
    let text: string;
    if (differing > 0) [verdict, text] = ['differs', `differs (${differing} case${differing === 1 ? '' : 's'})`];
    else if (compared > 0) [verdict, text] = ['same', 'same'];
    else if (skippedCases.length > 0) {
      verdict = 'skipped';
      text = needs.length > 0 ? `skipped (needs ${needs.join(', ')})` : `skipped (${skippedCases[0]?.skipped ?? ''})`;
    } else [verdict, text] = ['not compared', 'not compared'];
    const summary: RuleSummary = {
      id: r.id,
      level: r.level,
      verdict,
      text,
      compared,
      differing,
      skipped: skippedCases.length,
      needs,
    };
    const note = verdict === 'not compared' ? NOT_COMPARED[r.id] : undefined;
    return note ? { ...summary, note } : summary;
  });
}

function choices(cases: CaseResult[]): Choice[] {
  return CHOICES.map(({ choice, rule, pick, value = (o) => o.behaviour, tally = false }) => {
    const picked = cases.filter((c) => c.compared && pick(c));
    const describe = (side: 'a' | 'b') => {
      const counts = new Map<string, number>();
      for (const c of picked) {
        const o = c[side];
        if (o && !o.notSent) counts.set(value(o), (counts.get(value(o)) ?? 0) + 1);
      }
      if (counts.size === 0) return '(not observed)';
      if (counts.size === 1 && !tally) return [...counts.keys()][0] ?? '';
      return [...counts.entries()].map(([what, n]) => `${what} ×${n}`).join(', ');
    };
    return { choice, rule, a: describe('a'), b: describe('b') };
  });
}

/** Loads both files and compares. Throws FidelityConfigError (bad file: exit 2) or TargetUnreachable (exit 1). */
export function compareTargets(opts: FidelityOptions): Promise<FidelityReport> {
  const [A, B] = loadTargets(opts.fileA, opts.fileB);
  return compareLoaded(A, B, opts);
}

/** Compares two loaded targets. Throws TargetUnreachable when one does not answer its first request. */
export async function compareLoaded(
  A: LoadedTarget,
  B: LoadedTarget,
  opts: { seed?: number; runs?: number } = {},
): Promise<FidelityReport> {
  const seed = opts.seed ?? 1;
  const runs = opts.runs ?? 12;
  const apiA = new ApiClient(A.target);
  const apiB = new ApiClient(B.target);
  const [pa, pb] = await Promise.all([probe(apiA, A), probe(apiB, B)]);

  const all = buildCases({ seed, runs });
  const results = new Map<string, CaseResult>();
  const toSend: Case[] = [];
  for (const c of all) {
    const base = {
      id: c.id,
      rule: c.rule,
      kind: c.kind,
      label: c.label,
      compared: false,
      identical: false,
      differences: [],
    };
    const missing = c.needs.filter((name) => !sets(A, name) || !sets(B, name));
    if (missing.length > 0) {
      const sides = (name: string) => [A, B].filter((t) => !sets(t, name)).map((t) => t.side);
      const where = missing.map((name) => `${name} (not set in ${sides(name).join(' and ')})`);
      results.set(c.id, { ...base, skipped: `needs ${where.join(', ')}`, missing });
      continue;
    }
    // An "unknown" status drawn by the arbitrary that one target actually uses would compare data, not shape.
    const status = c.kind === 'unknown-status' ? c.window?.status : undefined;
    const seenOn =
      status === undefined ? [] : (['A', 'B'] as const).filter((_, i) => [pa, pb][i]?.statuses.includes(status));
    if (seenOn.length > 0) {
      results.set(c.id, { ...base, skipped: `the filter[status] value is a status seen on ${seenOn.join(' and ')}` });
      continue;
    }
    toSend.push(c);
  }

  const [obsA, obsB] = await Promise.all([sendAll(apiA, A, toSend, pa.total), sendAll(apiB, B, toSend, pb.total)]);
  for (const c of toSend) {
    const a = obsA.get(c.id);
    const b = obsB.get(c.id);
    const base = { id: c.id, rule: c.rule, kind: c.kind, label: redact(c.label) };
    if (!a || !b || a.notSent || b.notSent) {
      const reason = a?.notSent ?? b?.notSent ?? 'not sent';
      results.set(c.id, {
        ...base,
        compared: false,
        identical: false,
        a,
        b,
        differences: [],
        skipped: `not sent: ${reason}`,
      });
      continue;
    }
    const differences = compare(a, b);
    results.set(c.id, { ...base, compared: true, identical: differences.length === 0, a, b, differences });
  }

  const cases = all.map((c) => results.get(c.id) as CaseResult);
  const compared = cases.filter((c) => c.compared);
  const identical = compared.filter((c) => c.identical).length;
  const info = (lt: LoadedTarget, p: { total: number; probe: string }, api: ApiClient): TargetInfo => ({
    side: lt.side,
    file: lt.file,
    baseURL: redact(lt.target.baseURL),
    total: p.total,
    probe: p.probe,
    declaredDefaultLimit: lt.target.defaultLimit,
    requests: api.sent,
  });
  return {
    seed,
    runs,
    targets: { A: info(A, pa, apiA), B: info(B, pb, apiB) },
    cases,
    differences: cases.flatMap((c) => c.differences.map((d) => ({ case: c.id, label: c.label, ...d }))),
    rules: summarise(cases),
    choices: choices(cases),
    summary: {
      cases: cases.length,
      compared: compared.length,
      identical,
      skipped: cases.filter((c) => c.skipped && !c.skipped.startsWith('not sent')).length,
      notCompared: cases.filter((c) => c.skipped?.startsWith('not sent')).length,
    },
    fidelity: `fidelity: ${identical}/${compared.length} cases identical in shape`,
  };
}
