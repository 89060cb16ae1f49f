/**
 * Requests in flight together (specs/concurrent.spec.ts; reading "Keys, modes, merchants"): every answer is the one
 * the request gets alone. A server that keeps a request-scoped value in state shared between requests — the
 * principal the auth middleware found, the merchant the router read, kept in a module variable across an await —
 * answers a request with what another request left there, and only when the two are in flight together: a run that
 * sends one request at a time never sees it.
 *
 * One set of requests per worker, shared by the checks of every rule it judges: each credential the configuration has
 * on the payments listing of the merchant its rule is about (allowed and refused), and on /merchant/status, sent in
 * bursts, all in flight together, each a moment after the one before so that it arrives while the others are being
 * answered. A burst's order decides what a later arrival can overwrite: the first sends every refused request before
 * the allowed ones, the second the allowed ones first, the deeper ones in orders drawn from the run's seed. Each
 * answer is judged by its rule's oracle (the access oracle for its status, the watcher's provenance for its records).
 */
import fc from 'fast-check';
import { accessViolation, expectedAccess } from '../../checks/access-oracle.ts';
import { crossings } from '../../checks/doors.ts';
import { pageViolations, reads } from '../../checks/page.ts';
import { TransportError } from '../client/http.ts';
import { CANONICAL, keyModes } from '../generate/access-cases.ts';
import { unknownKeyOfValidFormat } from '../generate/key-mutations.ts';
import type { AccessCase, AccessExpectation, Credential, Endpoint, MerchantRole } from '../model/access.ts';
import { directions, PAYMENTS } from '../model/collection.ts';
import type { DepthName } from '../model/depth.ts';
import type { Exchange } from '../model/exchange.ts';
import type { FieldFilter, PageRequest } from '../model/listing.ts';
import { concurrentOf, type RuleId } from '../model/rules.ts';
import type { Target } from '../model/target.ts';
import { RuleViolation, type Violation } from '../model/verdict.ts';
import { sendCase } from './access-property.ts';
import { type CheckContext, NotRun, notExercised } from './check.ts';
import { firstFilters } from './learn.ts';
import { AnswerWatch } from './watch.ts';

/** The bursts each depth sends: refused first, allowed first, then orders drawn from the seed. */
const BURSTS: Readonly<Record<DepthName, number>> = { quick: 1, standard: 2, deep: 6 };
/** Between two starts of a burst: each request arrives while the ones before it are still being answered. */
const STAGGER_MS = 1;

/** One request of the set: its case, who sends it for what (the principal and the listing), and its expectation. */
interface Lane {
  c: AccessCase;
  /** The credential and the listing it asks: two lanes of one principal share state legitimately. */
  principal: string;
  listing: string;
  expectation: AccessExpectation;
}

/** A lane's answer in one burst, and whether another principal's request was on the wire while it was. */
interface Sent {
  lane: Lane;
  exchange: Exchange;
  /** Another principal's request (or another listing's) overlapped it on the wire: the burst exercised it. */
  overlapped: boolean;
}

const lane = (
  t: Target,
  credential: Credential,
  endpoint: Endpoint,
  merchant: MerchantRole,
  query: PageRequest = {},
): Lane => {
  const c: AccessCase = { credential, spelling: CANONICAL, endpoint, merchant, collection: PAYMENTS, query };
  const who = credential.kind === 'key' ? `${credential.slot}${credential.mutation ? '*' : ''}` : credential.kind;
  return {
    c,
    principal: who,
    listing: endpoint === 'status' ? 'status' : merchant,
    expectation: expectedAccess(c, keyModes(t)),
  };
};

/**
 * The lanes the configuration allows: refused ones, then allowed ones. The allowed listings each ask another query
 * (offset, limit, a value of the first filter, a sort direction), so that a listing answered with another request's
 * parameters (a query builder shared between requests) shows in its echo, its size, its filter or its order.
 */
export function lanesOf(t: Target, filter?: FieldFilter): { refused: Lane[]; allowed: Lane[] } {
  const key = (slot: 'test' | 'live' | 'restricted' | 'revoked'): Credential => ({ kind: 'key', slot });
  const { keys, merchants } = t;
  const refused = [
    lane(t, { kind: 'none' }, 'list', 'sandbox'),
    lane(t, { kind: 'none' }, 'status', 'sandbox'),
    lane(t, { kind: 'key', slot: 'test', mutation: unknownKeyOfValidFormat(keys.test) }, 'list', 'sandbox'),
    ...(keys.revoked ? [lane(t, key('revoked'), 'list', 'sandbox')] : []),
    ...(keys.restricted ? [lane(t, key('restricted'), 'list', 'sandbox')] : []),
    ...(keys.live ? [lane(t, key('live'), 'list', 'sandbox')] : []),
  ];
  const [ascending, descending] = PAYMENTS.sorts.flatMap(directions);
  const filtered = filter ? { filter } : {};
  const allowed = [
    lane(t, key('test'), 'list', 'sandbox', { offset: 1, limit: 3, ...filtered, sort: ascending }),
    ...(merchants.otherSandbox ? [lane(t, key('test'), 'list', 'otherSandbox', { limit: 4, sort: descending })] : []),
    ...(merchants.live ? [lane(t, key('test'), 'list', 'live', { offset: 2, limit: 5 })] : []),
    ...(merchants.live && keys.live ? [lane(t, key('live'), 'list', 'live', { limit: 6, ...filtered })] : []),
    lane(t, key('test'), 'status', 'sandbox'),
  ];
  return { refused, allowed };
}

/** The order of each burst: refused first, allowed first, then permutations drawn from the run's seed. */
export function burstOrders(lanes: { refused: Lane[]; allowed: Lane[] }, bursts: number, seed: number): Lane[][] {
  const all = [...lanes.refused, ...lanes.allowed];
  const orders = [all, [...lanes.allowed, ...lanes.refused]];
  if (bursts > 2) {
    const drawn = fc.sample(fc.shuffledSubarray(all, { minLength: all.length, maxLength: all.length }), {
      seed,
      numRuns: bursts - 2,
    });
    orders.push(...drawn);
  }
  return orders.slice(0, bursts);
}

/** Whether two requests were on the wire at once (each sent before the other's answer came). */
const onWireTogether = (a: Exchange, b: Exchange) =>
  a.onWire !== undefined && b.onWire !== undefined && b.onWire.start < a.onWire.end && a.onWire.start < b.onWire.end;

/** Sends one burst: every lane started in order, a moment apart, all in flight together; the answers in that order. */
async function burst(ctx: CheckContext, order: readonly Lane[]): Promise<Sent[]> {
  const pending: Array<Promise<Exchange>> = [];
  // Reserved together: on a paced target (a sandbox's rate limit) the lanes still start a moment apart, not a slot.
  const ticket = ctx.api.together(order.length, STAGGER_MS);
  try {
    for (const l of order) {
      pending.push(sendCase(ctx.api, ctx.target, l.c));
      await new Promise((resolve) => setTimeout(resolve, STAGGER_MS));
    }
  } finally {
    ticket.end();
  }
  // A request that failed on the wire or stayed throttled in a burst (a server that sheds load) is left out; the run's
  // own limits (its request or time budget, a target gone) end the check as they end any.
  const settled = await Promise.allSettled(pending);
  const answers = settled.map((s) => {
    if (s.status === 'fulfilled') return s.value;
    if (s.reason instanceof TransportError) return undefined;
    throw s.reason;
  });
  return answers.flatMap((exchange, i) => {
    if (!exchange) return [];
    const mine = order[i] as Lane;
    const overlapped = answers.some((other, j) => {
      const differs = order[j]?.principal !== mine.principal || order[j]?.listing !== mine.listing;
      return j !== i && differs && other !== undefined && onWireTogether(exchange, other);
    });
    return [{ lane: mine, exchange, overlapped }];
  });
}

/** A worker's bursts: what each lane got, how many bursts, and the lanes the configuration gave. */
interface Bursts {
  sent: Sent[];
  bursts: number;
  lanes: Lane[];
}

const runs = new WeakMap<object, Promise<Bursts>>();

/** The worker's bursts, sent once and shared by the checks of every rule they judge. */
function bursts(ctx: CheckContext): Promise<Bursts> {
  let run = runs.get(ctx.api);
  if (!run) {
    run = (async () => {
      const [filter] = await firstFilters(ctx, PAYMENTS);
      const lanes = lanesOf(ctx.target, filter);
      const orders = burstOrders(lanes, BURSTS[ctx.depth.name], ctx.target.fcSeed ?? 0);
      const sent: Sent[] = [];
      for (const order of orders) sent.push(...(await burst(ctx, order)));
      return { sent, bursts: orders.length, lanes: [...lanes.refused, ...lanes.allowed] };
    })();
    runs.set(ctx.api, run);
    run.catch(() => runs.delete(ctx.api));
  }
  return run;
}

/** An answer that sheds load rather than answering the request: a 429, or any 5xx. */
const shed = (status: number) => status === 429 || status >= 500;

/** Which lanes a rule judges: the isolation rules every listing, a page rule the allowed listings it reads, else its own. */
function judges(rule: RuleId): (l: Lane) => boolean {
  const kind = concurrentOf(rule);
  if (kind && 'records' in kind) return (l) => l.c.endpoint === 'list';
  if (kind && 'page' in kind)
    return (l) => l.c.endpoint === 'list' && l.expectation.allowed(200) && reads(kind.page, l.c.query);
  return (l) => l.expectation.rule === rule;
}

/** The violations of `rule` among the answers it judges. */
function violationsOf(ctx: CheckContext, rule: RuleId, own: readonly Sent[], sent: readonly Sent[]): Violation[] {
  const kind = concurrentOf(rule);
  if (kind && 'records' in kind) {
    const watch = new AnswerWatch(ctx.target, 'concurrent');
    const crossed = crossings(
      own.map((s) => watch.see(s.exchange)),
      rule,
    );
    if (crossed.unexercised) notExercised(ctx, crossed.unexercised);
    return crossed.violations;
  }
  return own.flatMap((s) => {
    const q = s.lane.c.query;
    // A page rule reads a 200 listing; another status is its access rule's to judge.
    const found =
      kind && 'page' in kind
        ? s.exchange.status === 200
          ? pageViolations(s.exchange, q, ctx.target.defaultLimit).filter((v) => v.rule === rule)
          : []
        : [accessViolation(s.lane.expectation, s.exchange, q)];
    return found.flatMap((v) =>
      v ? [{ ...v, received: `${v.received} (in flight together with ${others(sent, s)})` }] : [],
    );
  });
}

/**
 * The check of `ctx.rule` over the bursts: every answer of a lane of its rule as the access oracle requires (the
 * statuses), every allowed page as the rule of a single answer requires (envelope, echo, size, filter, order), or no
 * record listed under two listings across its boundary (the isolation rules). Not exercised when no request it judges
 * was on the wire together with another (a target paced one request at a time).
 */
export async function concurrencyCheck(ctx: CheckContext): Promise<void> {
  const { sent, bursts: n, lanes } = await bursts(ctx);
  const rule = ctx.rule;
  const ofRule = judges(rule);
  if (!lanes.some(ofRule))
    throw new NotRun('needs input', 'no request of this rule in the configuration (a key, a merchant, a filter value)');
  const mine = sent.filter((s) => ofRule(s.lane));
  // A server may shed a burst's load (429, a 5xx): such an answer says nothing of what the request gets alone. (A
  // request that failed on the wire in a burst has no answer here at all.)
  const own = mine.filter((s) => !shed(s.exchange.status));
  const dropped = mine.length - own.length;
  if (dropped > 0) ctx.notes.add(`${dropped} answer(s) of this rule shed as load (429 or 5xx), not judged`);
  const together = own.filter((s) => s.overlapped).length;
  ctx.notes.add(
    `${sent.length} requests in ${n} burst(s); ${together} of this rule's ${own.length} on the wire together with another principal's or listing's`,
  );
  const violations = violationsOf(ctx, rule, own, sent);
  const [first] = violations;
  if (first) {
    const more = violations.length > 1 ? ` (and ${violations.length - 1} more like it)` : '';
    throw new RuleViolation({ ...first, received: `${first.received}${more}` });
  }
  if (own.length === 0) notExercised(ctx, 'no request of this rule in the bursts got an answer other than shed load');
  else if (together === 0)
    notExercised(ctx, "no request of this rule was on the wire together with another: the target's pace spaced them");
}

/** The other requests on the wire with `s`, in words (their credentials, by slot). */
function others(sent: readonly Sent[], s: Sent): string {
  const labels = sent
    .filter((o) => o !== s && onWireTogether(s.exchange, o.exchange))
    .map((o) => `${o.exchange.authLabel} on ${o.exchange.path}`);
  return labels.length > 0 ? [...new Set(labels)].slice(0, 3).join('; ') : 'no other request';
}
