/**
 * A run's time budget (`--max-time 60s`, CONFORMANCE_MAX_TIME), as pure decisions over what the run measured: no
 * committed table of costs. One run-wide clock starts when the command starts; each check, before it starts, asks
 * `admit` whether it and the more telling checks not started yet fit in the time left at the mean cost of the checks
 * that ended so far (their wall time, which holds the pace the run learned and the requests each sent). A check that
 * does not fit declines: "not run (time budget)", named in the outcome and every report. The order of what is most
 * telling is `planOrder`: the first check of every rule before the second of any (MUST rules before advisory ones),
 * so that a short budget judges as many rules as it can. A check already running when the time is spent is stopped
 * by its client (core/client/http.ts) and reads the same.
 */

/** A duration as the command takes it: `90`, `60s`, `5m`, `1h30m`, `1m30s`, `500ms`; undefined when unreadable. */
export function parseDuration(text: string): number | undefined {
  const t = text.trim().toLowerCase();
  if (/^\d+(?:\.\d+)?$/.test(t)) return Number(t) * 1000;
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, min: 60_000, h: 3_600_000 };
  const parts = [...t.matchAll(/(\d+(?:\.\d+)?)\s*(ms|min|s|m|h)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== t.replace(/\s+/g, '')) return undefined;
  return parts.reduce((ms, p) => ms + Number(p[1]) * (units[p[2] as string] as number), 0);
}

/** A duration in the words of the command: `60 s`, `2 min 30 s`. */
export function describeDuration(ms: number): string {
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  if (s < 120) return `${s} s`;
  return s % 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s / 60} min`;
}

/** One check of the run, as the plan knows it (the console reporter writes the plan when the checks are known). */
export interface PlannedCheck {
  /** Its test id (the same in every process of the run). */
  id: string;
  rule: string;
  level: 'MUST' | 'ADVISORY';
  /** Its rule is judged whole over every answer of the run (Rule.wholeOverEveryAnswer): none of its checks is a first. */
  judgedLast?: boolean;
}

/**
 * The checks from the most to the least telling: every rule's first check (in the order the run declares them), MUST
 * rules before advisory ones, then every rule's second check, and so on. A rule judged by one check is judged; its
 * further checks deepen the verdict. A rule judged whole over every answer of the run (`judgedLast`) has that check
 * for its first (it runs last, outside the plan): its own checks rank as second ones.
 */
export function planOrder(checks: readonly PlannedCheck[]): string[] {
  const seen = new Map<string, number>();
  const ranked = checks.map((c, i) => {
    const nth = (seen.get(c.rule) ?? 0) + (c.judgedLast ? 1 : 0);
    seen.set(c.rule, (seen.get(c.rule) ?? 0) + 1);
    return { id: c.id, nth, advisory: c.level === 'MUST' ? 0 : 1, i };
  });
  ranked.sort((a, b) => a.nth - b.nth || a.advisory - b.advisory || a.i - b.i);
  return ranked.map((r) => r.id);
}

/** What a check ended with, as the run's check log keeps it. */
export interface CheckCost {
  id: string;
  requests: number;
  ms: number;
}

/** What `admit` weighs: the clock, the plan, what started and what it cost. */
export interface BudgetFacts {
  now: number;
  /** No check may start that would end after this (ms since epoch). */
  deadline: number;
  /** The run's checks from the most to the least telling (`planOrder`), by id; empty when the plan is unknown. */
  order: readonly string[];
  /** The checks that began (running, ended, or declined), by id. */
  begun: ReadonlySet<string>;
  /** The checks that ended, with their cost. */
  ended: readonly CheckCost[];
  /**
   * The checks that are their rule's first in the plan (`firstOfRule`): a rule's first check judges it, its others
   * deepen the verdict. Their cost is estimated from the firsts that ended (they cost more than the mean of all: the
   * coverage of a rule comes first). Absent: every check weighs the mean.
   */
  first?: ReadonlySet<string>;
  /** The checks of advisory rules: their first checks wait for the MUST rules' when the run is short of time. */
  advisory?: ReadonlySet<string>;
  /** Checks running at once (the workers). */
  workers: number;
  /**
   * The requests the run is expected to send yet: its depth's request bound (its collections counted) less what the
   * ended checks sent. When the time left cannot hold them at the pace measured so far, a rule's further check gives
   * its time to the rules not judged yet. Absent: not weighed.
   */
  requestsLeft?: number;
}

export type Admission = { start: true } | { start: false; reason: string };

/** The mean wall time of a check so far (ms), or undefined before one ended. */
function meanCheckMs(ended: readonly CheckCost[]): number | undefined {
  if (ended.length === 0) return undefined;
  return ended.reduce((n, c) => n + c.ms, 0) / ended.length;
}

/** The checks of `order` that come first for their rule (`planOrder` ranks every rule's first check before any second). */
export function firstOfRule(checks: readonly PlannedCheck[]): Set<string> {
  const rules = new Set<string>();
  const first = new Set<string>();
  for (const c of checks) {
    if (rules.has(c.rule) || c.judgedLast) continue;
    rules.add(c.rule);
    first.add(c.id);
  }
  return first;
}

/** What a check not begun yet is expected to cost (ms): a rule's first check at the firsts' mean, another at the mean. */
function expectedMs(f: BudgetFacts, mean: number): (id: string) => number {
  const first = f.first;
  if (!first || first.size === 0) return () => mean;
  const firsts = f.ended.filter((c) => first.has(c.id));
  const meanFirst = Math.max(mean, meanCheckMs(firsts) ?? mean);
  return (id) => (first.has(id) ? meanFirst : mean);
}

/**
 * Whether check `id` starts: it and every more telling check not begun yet must fit before the deadline at the mean cost
 * so far, the workers sharing the work. Before any check ended nothing is measured: a check starts while time is left.
 */
export function admit(id: string, f: BudgetFacts): Admission {
  const left = f.deadline - f.now;
  if (left <= 0) return { start: false, reason: 'the time budget was spent before it could start' };
  const mean = meanCheckMs(f.ended);
  if (mean === undefined) return { start: true };
  const rank = f.order.indexOf(id);
  const before = rank < 0 ? [] : f.order.slice(0, rank).filter((t) => t !== id && !f.begun.has(t));
  const short = shortOfTime(id, before, left, f);
  if (short) return { start: false, reason: short };
  const cost = expectedMs(f, mean);
  const needed = [...before, id].reduce((n, t) => n + cost(t), 0) / Math.max(1, f.workers);
  if (needed <= left) return { start: true };
  const ahead = before.length ? ` after ${before.length} more telling check(s) not started yet` : '';
  return {
    start: false,
    reason: `the time budget could not hold it${ahead}: ${describeDuration(left)} left, about ${describeDuration(needed)} needed at ${describeDuration(cost(id))} a check like it so far`,
  };
}

/** The wall time of a request so far (ms): the ended checks' time over their requests; undefined before one sent any. */
function msPerRequest(ended: readonly CheckCost[]): number | undefined {
  const sending = ended.filter((c) => c.requests > 0);
  const requests = sending.reduce((n, c) => n + c.requests, 0);
  return requests > 0 ? sending.reduce((n, c) => n + c.ms, 0) / requests : undefined;
}

/**
 * Why a check gives way to rules not judged yet at the pace so far (a slow or paced target): a rule's further check
 * while rules' first checks wait and they and it cannot fit the time left (every rule judged before any rule judged
 * deeper); an advisory rule's first check while the MUST rules' waiting first checks and its own cannot. A waiting
 * first check weighs what a first check sent so far, or twice its share of the rest of the run (the depth's request
 * bound less what was sent, over the checks not begun), whichever is more. Undefined: it may start (a MUST rule's first
 * check, nothing waiting, it fits, or nothing measured yet).
 */
function shortOfTime(id: string, before: readonly string[], left: number, f: BudgetFacts): string | undefined {
  const first = f.first;
  if (!first || f.requestsLeft === undefined) return undefined;
  // What waits: the rules' first checks before a further one; before an advisory rule's first, the MUST rules' firsts.
  const advisory = f.advisory ?? new Set<string>();
  const perRequest = msPerRequest(f.ended);
  if (perRequest === undefined) return undefined;
  const wall = (requests: number) => (requests * perRequest) / Math.max(1, f.workers);
  const perFirst = meanRequests(f.ended.filter((c) => first.has(c.id)));
  const notBegun = (waiting: number) => Math.max(waiting + 1, f.order.filter((t) => !f.begun.has(t)).length);
  // A waiting first check: what a first check sent so far, or twice its share of the rest of the run.
  const perWaiting = (waiting: number) =>
    Math.max(perFirst ?? 0, (FIRST_WEIGHT * Math.max(0, f.requestsLeft ?? 0)) / notBegun(waiting));
  if (first.has(id)) {
    // An advisory rule's first check: the MUST rules' first checks waiting, and its own, must fit.
    const must = advisory.has(id) ? before.filter((t) => first.has(t) && !advisory.has(t)).length : 0;
    if (must === 0 || perFirst === undefined) return undefined;
    const requests = must * perWaiting(must) + perFirst;
    const needed = wall(requests);
    if (needed <= left) return undefined;
    return `the time budget keeps its ${describeDuration(left)} for the ${must} MUST rule(s) not judged yet: their first checks and this one (about ${Math.round(requests)} requests at ${Math.round(perRequest)} ms each so far) need about ${describeDuration(needed)}`;
  }
  const waiting = before.filter((t) => first.has(t)).length;
  if (waiting === 0) return undefined;
  // This check: what a check sent so far.
  const requests = waiting * perWaiting(waiting) + (meanRequests(f.ended) ?? 0);
  const needed = wall(requests);
  if (needed <= left) return undefined;
  return `the time budget keeps its ${describeDuration(left)} for the ${waiting} rule(s) not judged yet: their first checks and this one (about ${Math.round(requests)} requests, at ${Math.round(perRequest)} ms each so far) need about ${describeDuration(needed)}`;
}

/**
 * What a rule's first check not begun weighs against its share of the rest of the run: a first check holds its
 * rule's coverage, the heaviest of its checks (the access matrix's, the coverage phases'), and the cheap ones end
 * first, so the firsts measured early say little about those still waiting.
 */
const FIRST_WEIGHT = 2;

/** The mean requests of these checks, or undefined when none ended. */
function meanRequests(ended: readonly CheckCost[]): number | undefined {
  return ended.length ? ended.reduce((n, c) => n + c.requests, 0) / ended.length : undefined;
}

/**
 * The budget's end for the checks of every answer and the reports: 5 s of it, or a twentieth of a long one (never more
 * than a quarter); once a pace is measured (`msPerRequest`: the wall time of one request of the run so far), what
 * those checks ask at that pace (LAST_REQUESTS) and a second to judge, at least 2 s. The other checks stop that much
 * earlier.
 */
const RESERVE_MS = 5000;
const MIN_RESERVE_MS = 2000;
/** About what the checks of every answer ask (13 at quick): the listings and filter values no check read. */
const LAST_REQUESTS = 15;

/** When a check's client stops: the run's end for the checks judged last (`last`), earlier for the others. */
export function deadlineOf(startedAt: number, maxTimeMs: number, last: boolean, msPerRequest?: number): number {
  if (last) return startedAt + maxTimeMs;
  const reserve =
    msPerRequest === undefined
      ? Math.max(RESERVE_MS, maxTimeMs / 20)
      : Math.max(MIN_RESERVE_MS, LAST_REQUESTS * msPerRequest + 1000);
  return startedAt + maxTimeMs - Math.min(maxTimeMs / 4, reserve);
}

/** The wall time of one request of the run so far (ms): the checks' time per request, over the workers sharing it. */
export function wallPerRequest(ended: readonly CheckCost[], workers: number): number | undefined {
  const ms = msPerRequest(ended);
  return ms === undefined ? undefined : ms / Math.max(1, workers);
}

/** What the depth plan weighs, once the preflight has seen the target. */
export interface DepthPlanFacts {
  /** The time left for the checks and the reports (ms). */
  leftMs: number;
  /** Requests a second the run can expect: the configured cap, the rate the target announced, what its answer time allows. */
  rps: number;
  /** The requests a run sends at standard and at quick on this configuration (their bounds, the collections counted). */
  requests: { standard: number; quick: number };
}

/**
 * The depth a time budget plans for when the user named none: standard when its requests fit the time left at the
 * pace the preflight saw, else quick, which judges every rule on a fraction of standard's requests; never deep (a
 * nightly search is the user's choice). Undefined: standard fits.
 */
export function plannedDepth(f: DepthPlanFacts): { depth: 'quick'; reason: string } | undefined {
  const needMs = (f.requests.standard / Math.max(f.rps, 0.01)) * 1000;
  if (needMs <= f.leftMs) return undefined;
  const rate = f.rps >= 10 ? Math.round(f.rps) : Number(f.rps.toFixed(1));
  return {
    depth: 'quick',
    reason: `standard's ~${f.requests.standard.toLocaleString('en-US')} requests take about ${describeDuration(needMs)} at ${rate} requests/s, more than the ${describeDuration(Math.max(0, f.leftMs))} the time budget leaves; quick judges every rule in ~${f.requests.quick.toLocaleString('en-US')}`,
  };
}

/** Requests a second a run can expect: the lowest of the configured cap, the announced rate and what the answer time allows. */
export function expectedRps(o: { maxRps: number; learnedRps?: number; latencyMs?: number; workers: number }): number {
  const byLatency = o.latencyMs && o.latencyMs > 0 ? (o.workers * 1000) / o.latencyMs : Number.POSITIVE_INFINITY;
  const caps = [
    o.maxRps > 0 ? o.maxRps : Number.POSITIVE_INFINITY,
    o.learnedRps ?? Number.POSITIVE_INFINITY,
    byLatency,
  ];
  return Math.min(...caps);
}
