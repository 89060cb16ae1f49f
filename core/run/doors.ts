/**
 * The door checks (specs/doors.spec.ts; reading "Inputs the spec does not document"): the requests the suite already
 * sends — each credential on /merchant/status and on the listings (core/run/door-bases.ts) — with inputs the spec does
 * not document added: candidate query parameters, headers and cookies in batches (core/run/door-explore.ts), the
 * credential and the merchant id changed by operators, the documented header left out (core/run/door-operators.ts).
 * A refusal stays a refusal and carries nothing of what it refuses; an allowed answer shows no record its key and
 * merchant may not see and never more than the cap. Judged by the watcher's provenance machinery (the records learned
 * on canonical listings, core/run/watch.ts) and the access oracle (checks/access-oracle.ts).
 *
 * What a check learns is shared by the door checks of its worker (each base explored once): first the canonical
 * listings and /merchant/status, whose answers give the candidates from the target; then, for each check, the bases
 * of its rule. Deterministic but for a few operators drawn from the run's seed.
 */
import { fetchPage } from '../client/http.ts';
import { addShown, candidatePool, observe } from '../generate/door-candidates.ts';
import { vocabularies } from '../generate/door-vocabulary.ts';
import { METHOD_FORMS, PREFLIGHT_HEADERS } from '../generate/safe-methods.ts';
import { PAYMENTS, publishedCollections } from '../model/collection.ts';
import { asKey, NO_AUTH } from '../model/credentials.ts';
import type { DepthName } from '../model/depth.ts';
import { addTally, type DoorTally, describeTally } from '../model/door-tally.ts';
import type { DoorBase, DoorCase } from '../model/doors.ts';
import type { Exchange } from '../model/exchange.ts';
import { listingOf, listingPath, MAX_LIMIT, readableListings, readEnvelope, STATUS_PATH } from '../model/listing.ts';
import type { RuleId } from '../model/rules.ts';
import type { Target } from '../model/target.ts';
import type { CheckContext } from './check.ts';
import { doorBases } from './door-bases.ts';
import { type Explorer, exploreAllowed, exploreRefused, validatorsOf } from './door-explore.ts';
import {
  exploreConditionals,
  exploreDocumentedHeaders,
  exploreKeyOperators,
  exploreQueryCredentials,
  exploreRepresentations,
  exploreSpellings,
} from './door-operators.ts';
import { formOf } from './watch.ts';

/**
 * Requests the door checks may spend splitting batches, by the run's depth (--depth): the default run's share of its
 * bound (1,750 requests), a quick run's and a deeper run's. The batches themselves are the deterministic core, always
 * sent.
 */
const DOOR_BUDGET: Readonly<Record<DepthName, { left: number; perBase: number }>> = {
  quick: { left: 20, perBase: 4 },
  standard: { left: 80, perBase: 16 },
  deep: { left: 4000, perBase: 400 },
};

/** One worker's exploration: what it learned, and each base's exploration once. */
interface DoorState {
  explorer: Explorer;
  learned: Exchange[];
  bases: DoorBase[];
  /** Every answer the exploration got, those waited out (a 429, a 503 asked again) included. */
  seen: Exchange[];
  done: Map<DoorBase, Promise<void>>;
}

const states = new WeakMap<object, Promise<DoorState>>();

/** Records of each canonical listing the door checks learn: the first pages (the every-answer checks read them all). */
const LEARN_RECORDS = 500;

/**
 * /merchant/status with the test key, and the first pages of every canonical listing (up to LEARN_RECORDS, or
 * API_MAX_RECORDS): the records the provenance check knows, and what the target shows of itself. Read page by page as
 * it comes, whatever its total does meanwhile (a record of a listing is that listing's, even on a growing sandbox).
 */
async function learn(ctx: CheckContext): Promise<Exchange[]> {
  const t = ctx.target;
  const listings = readableListings(t, PAYMENTS);
  if (t.merchants.otherSandbox) listings.push(listingOf(PAYMENTS, t.merchants.otherSandbox, 'test'));
  const out: Exchange[] = [await ctx.api.get(STATUS_PATH, { auth: asKey('test') })];
  const most = Math.min(LEARN_RECORDS, t.maxRecords);
  for (const l of listings) {
    for (let offset = 0; offset < most; offset += MAX_LIMIT) {
      const e = await fetchPage(ctx.api, l, { offset, limit: MAX_LIMIT });
      out.push(e);
      const total = readEnvelope(e)?.total;
      if (total === undefined || offset + MAX_LIMIT >= total) break;
    }
  }
  return out;
}

/**
 * One answer of each way the target may answer otherwise, on /merchant/status and the first canonical listing: without
 * a key, and each method form besides GET (HEAD and OPTIONS with the test key, a CORS pre-flight without one, as a
 * browser sends it). A server names the request headers it reads where it pleases — a pre-flight's
 * Access-Control-Allow-Headers above all, a refusal's Vary —: the names come from every form, not from the pages alone.
 */
async function askForms(ctx: CheckContext, asked: ReadonlySet<string>): Promise<Exchange[]> {
  const first = readableListings(ctx.target, PAYMENTS)[0];
  const out: Exchange[] = [];
  const ends: Array<[string, string]> = [['status', STATUS_PATH]];
  if (first) ends.push(['list', listingPath(first)]);
  for (const [endpoint, path] of ends) {
    // A form the run already asked on this endpoint: its answer's names are the run's already.
    const ask = (method: 'GET' | 'HEAD' | 'OPTIONS', presenter: string, preflight = false) =>
      !asked.has(formOf({ method, endpoint, presenter, preflight }));
    if (ask('GET', 'none')) out.push(await ctx.api.get(path, { auth: NO_AUTH }));
    for (const form of METHOD_FORMS) {
      if (!ask(form.method, form.preflight ? 'none' : 'test', form.preflight)) continue;
      const auth = form.preflight ? NO_AUTH : asKey('test');
      const headers = form.preflight ? { ...PREFLIGHT_HEADERS } : undefined;
      out.push(await ctx.api.request(form.method, path, { auth, headers }));
    }
  }
  return out;
}

/** The worker's door state: learned once, then shared by its door checks. */
function stateOf(ctx: CheckContext, depth: DepthName): Promise<DoorState> {
  let state = states.get(ctx.api);
  if (!state) {
    state = (async () => {
      const seen: Exchange[] = [];
      const stop = ctx.api.observe((e) => seen.push(e));
      try {
        const learned = await learn(ctx);
        const run = ctx.doorFactsOfRun?.() ?? { shown: [], forms: new Set<string>() };
        const forms = await askForms(ctx, run.forms);
        const t = ctx.target;
        const merchants = Object.values(t.merchants).filter((m): m is string => !!m);
        // Names from every answer of the run so far as well (the door checks run after every other check but those of
        // every answer: specs/doors.spec.ts), in any process: a target may name a header only in a 403, a 404, a
        // filtered page's Link.
        const pool = candidatePool({
          observed: addShown(observe([...learned, ...forms]), run.shown),
          merchants,
          collections: publishedCollections(),
          vocabularies: vocabularies(t.vocabulary),
        });
        const budget = { ...DOOR_BUDGET[depth] };
        const explorer: Explorer = {
          api: ctx.api,
          t,
          pool,
          budget,
          cases: [],
          tally: new Map(),
          counted: new Map(),
          validators: validatorsOf(learned),
        };
        return { explorer, learned, bases: doorBases(t), seen, done: new Map() };
      } finally {
        stop();
      }
    })();
    states.set(ctx.api, state);
    state.catch(() => states.delete(ctx.api));
  }
  return state;
}

/**
 * Whether a refused base meets the key operators (a never-issued key's). They are the key check's classes
 * (AUTH-INVALID), met on both endpoints of a known merchant; at strength 1 (quick) an unknown merchant's request
 * (AUTH-FIRST: the key checked before the merchant) does not repeat them: its own class, a never-issued key of the
 * right form there, is the base itself.
 */
function keyOperatorsOn(t: Target, base: DoorBase): boolean {
  const cred = base.case.credential;
  if (cred.kind !== 'key' || !cred.mutation) return false;
  return t.depth.strength === 2 || base.case.merchant !== 'unknown' || base.case.endpoint !== 'list';
}

/** Explores one base: its batches, then what operators change of it. */
async function exploreBase(s: DoorState, base: DoorBase, runSeed: number): Promise<void> {
  const x = s.explorer;
  if (!base.refused) {
    await exploreAllowed(x, base);
    return exploreRepresentations(x, base);
  }
  await exploreRefused(x, base);
  await exploreConditionals(x, base);
  await exploreQueryCredentials(x, base);
  const cred = base.case.credential;
  if (base.case.endpoint === 'status') await exploreDocumentedHeaders(x, base);
  if (keyOperatorsOn(x.t, base)) await exploreKeyOperators(x, base, runSeed);
  const spelled = base.case.endpoint === 'list' && base.case.merchant === 'sandbox';
  if (spelled && (cred.kind === 'none' || (cred.kind === 'key' && ['live', 'restricted'].includes(cred.slot))))
    await exploreSpellings(x, base, runSeed);
}

/** What the door checks of a rule read: its cases, every answer of the exploration, the inputs tried. */
export interface DoorRun {
  learned: Exchange[];
  cases: DoorCase[];
  seen: Exchange[];
  tally: DoorTally;
  bases: DoorBase[];
}

/** Explores the bases whose answers can break `rule` (once per worker) and returns what they gave. */
export async function exploreDoors(ctx: CheckContext, rule: RuleId, depth: DepthName): Promise<DoorRun> {
  const s = await stateOf(ctx, depth);
  const bases = s.bases.filter((b) => b.rules.includes(rule));
  const runSeed = ctx.target.fcSeed ?? 0;
  for (const base of bases) {
    let done = s.done.get(base);
    if (!done) {
      const stop = ctx.api.observe((e) => s.seen.push(e));
      done = exploreBase(s, base, runSeed).finally(stop);
      s.done.set(base, done);
    }
    await done;
  }
  const mine = new Set(bases);
  const cases = s.explorer.cases.filter((c) => mine.has(c.of ?? c.base));
  const tally = bases.reduce<DoorTally>((sum, b) => addTally(sum, s.explorer.tally.get(b) ?? {}), {});
  if (bases.some((b) => b.refused && keyOperatorsOn(ctx.target, b))) ctx.seeded = true;
  ctx.notes.add(describeTally(tally));
  ctx.doors = tally;
  return { learned: s.learned, cases, seen: s.seen, tally, bases };
}
