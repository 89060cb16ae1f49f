/**
 * The door checks' operators (core/run/doors.ts): the credential and the merchant id changed by the mutation operators
 * of core/generate/operators.ts — their deterministic core on every run, and a few drawn from the run's seed beside —,
 * the documented header of /merchant/status left out or changed, and HTTP's own negotiation: a refused request made
 * conditional on the validators the target handed out for the same path (RFC 9110 §13: a cache or a conditional layer
 * in front of authentication answers 304 to whoever asks), an allowed one asked for another representation (§12.5.1
 * Accept: an export that forgets the cap or the merchant). Each request is a door case of the base whose credential,
 * path or headers it changes; the access oracle says what its answer must be.
 */
import fc from 'fast-check';
import { expectedAccess } from '../../checks/access-oracle.ts';
import { throughProxy } from '../client/transport.ts';
import { keyModes } from '../generate/access-cases.ts';
import {
  KEY_CORE,
  keyOperatorMutation,
  MERCHANT_CORE,
  merchantOperatorSegment,
  type Operator,
  operatorArb,
} from '../generate/operators.ts';
import type { DoorBase, DoorCase } from '../model/doors.ts';
import type { ExtraInputs } from '../model/exchange.ts';
import { basePath } from './door-bases.ts';
import type { Explorer } from './door-explore.ts';
import { sendDoor } from './door-send.ts';
import { propertySeed } from './property.ts';

/** Operators drawn from the run's seed beside the core, per kind. */
const SEEDED_OPERATORS = 2;

/** The core and `n` operators drawn from the run's seed for `what` (the draw is the same for the same seed). */
function operators(core: readonly Operator[], runSeed: number, what: string, n = SEEDED_OPERATORS): Operator[] {
  const drawn = n > 0 ? fc.sample(operatorArb, { numRuns: n, seed: propertySeed(runSeed, `doors: ${what}`) }) : [];
  return [...core, ...drawn];
}

/** Sends one operator's request as a case of `base`, counted on `of` (the base it was derived from); its answer. */
async function keep(
  x: Explorer,
  base: DoorBase,
  kind: DoorCase['kind'],
  added: DoorCase['added'],
  opts: { changed?: ExtraInputs; of?: DoorBase } = {},
) {
  const exchange = await sendDoor(x.api, x.t, base, added, opts.changed);
  x.cases.push({ base, added, kind, exchange, ...(opts.of ? { of: opts.of } : {}) });
  const of = opts.of ?? base;
  x.tally.set(of, { ...x.tally.get(of), operators: (x.tally.get(of)?.operators ?? 0) + 1 });
  return exchange;
}

/**
 * A never-issued key's base (AUTH-INVALID, on each endpoint), tried with the test key changed by every operator: each
 * its own base, its expectation the oracle's for that credential.
 */
export async function exploreKeyOperators(x: Explorer, base: DoorBase, runSeed: number) {
  const key = x.t.keys.test;
  for (const op of operators(KEY_CORE, runSeed, 'key operators')) {
    const mutation = keyOperatorMutation(op, key);
    if (!mutation) continue;
    const c = { ...base.case, credential: { kind: 'key' as const, slot: 'test' as const, mutation } };
    const expectation = expectedAccess(c, keyModes(x.t));
    const mutated: DoorBase = { ...base, case: c, expectation, label: expectation.what };
    await keep(x, mutated, 'operator', { inputs: [], shape: {} }, { of: base });
  }
}

/** A refused request on a sandbox merchant, tried on the merchant id changed by every operator. */
export async function exploreSpellings(x: Explorer, base: DoorBase, runSeed: number) {
  const id = x.t.merchants.sandbox;
  for (const op of operators(MERCHANT_CORE, runSeed, 'merchant operators', 1)) {
    const segment = merchantOperatorSegment(op, id);
    if (segment) await keep(x, base, 'spelling', { inputs: [], shape: {}, segment });
  }
}

/** The documented header of /merchant/status (§4.1 Content-Type) left out, or another media type. */
export async function exploreDocumentedHeaders(x: Explorer, base: DoorBase) {
  const without = { omit: ['content-type'] };
  await keep(
    x,
    base,
    'headers',
    { inputs: [], shape: {}, headers: 'without its documented Content-Type' },
    { changed: without },
  );
  const other = { headers: [{ name: 'Content-Type', value: ['text/plain'] }] };
  await keep(
    x,
    base,
    'headers',
    { inputs: [], shape: {}, headers: 'with Content-Type: text/plain' },
    { changed: other },
  );
}

/**
 * A refused request made conditional (RFC 9110 §13.1) on what the target handed out to validate an allowed answer of
 * the same request — the test key's first page of the listing, or /merchant/status, as the doors learned them
 * (`x.validators`): If-None-Match with its entity tag (`*` when it gave none, or where no key may read the path) and
 * If-Modified-Since with its Last-Modified (or its Date). A conditional layer, a cache, in front of authentication —
 * or between authentication and the permission or mode check — answers 304 Not Modified ("the request would have been
 * served") where the key must get its refusal. Sent with no key, and with the restricted and the live key where
 * they are refused (the keys a layer after authentication meets).
 */
export async function exploreConditionals(x: Explorer, base: DoorBase) {
  const cred = base.case.credential;
  const presenter =
    cred.kind === 'none' || (cred.kind === 'key' && !cred.mutation && ['restricted', 'live'].includes(cred.slot));
  if (!presenter) return;
  // Learned on the configured merchants' listings and /merchant/status: an unknown merchant's path has none (`*`).
  const v = x.validators?.get(basePath(x.t, base.case));
  const headers = [
    { name: 'If-None-Match', value: [v?.etag ?? '*'] },
    ...(v?.lastModified ? [{ name: 'If-Modified-Since', value: [v.lastModified] }] : []),
  ];
  const words = `conditional: If-None-Match ${v?.etag ? 'with the entity tag the target handed out' : '*'}${v?.lastModified ? ' and If-Modified-Since its date' : ''}`;
  await keep(x, base, 'headers', { inputs: [], shape: v?.shape ?? {}, headers: words }, { changed: { headers } });
}

/**
 * The media types an allowed listing is asked in besides JSON, in one Accept list (a server picks the first it
 * offers): the exports and views a listing endpoint commonly also serves.
 */
const OTHER_REPRESENTATIONS =
  'text/csv, application/xml;q=0.9, text/xml;q=0.9, application/x-ndjson;q=0.8, text/plain;q=0.7, text/html;q=0.6';

/**
 * An allowed listing asked for another representation (RFC 9110 §12.5.1): whatever the target answers in — a 406, the
 * same JSON, a CSV or XML export — it shows no record its key and merchant may not see and never more than the cap
 * (records are read in any representation: core/run/answer-content.ts).
 */
export async function exploreRepresentations(x: Explorer, base: DoorBase) {
  if (base.case.endpoint !== 'list') return;
  const headers = [{ name: 'Accept', value: [OTHER_REPRESENTATIONS] }];
  const words = `Accept: ${OTHER_REPRESENTATIONS.split(',')[0]}, … (another representation)`;
  await keep(x, base, 'headers', { inputs: [], shape: {}, headers: words }, { changed: { headers } });
}

/** The endpoints whose request without a key was asked with the key in the query, per explorer (a worker's doors). */
const queryCredentialsAsked = new WeakMap<Explorer, Set<string>>();

/**
 * A request without a key, with the test key in the query parameters that name a credential (the vocabulary's
 * credentials in the query: RFC 6750 §2.3's `access_token`, which bearer-token middleware such as passport-http-bearer
 * reads by default, `api_key`, …): only the documented `Authorization` header is a credential (reading "Inputs the spec
 * does not document"), so the answer stays a refusal. All of them in one request; where it is served, each alone (the
 * door it came through). A URL is logged by every proxy and server on its way: sent only to a target on this machine's
 * loopback with no proxy between (the key is written into the URL at the last moment; every record of the run shows its
 * variable, `$API_TEST_KEY`).
 */
export async function exploreQueryCredentials(x: Explorer, base: DoorBase) {
  if (base.case.credential.kind !== 'none' || !x.t.loopback || throughProxy() || !x.t.keys.test) return;
  // A merchant the test key lists (an unknown one is refused to the key itself: 404, nothing opened to show).
  if (base.case.endpoint === 'list' && base.case.merchant === 'unknown') return;
  // Once per endpoint: the middleware that reads a credential is the application's, not a route's.
  const done = queryCredentialsAsked.get(x) ?? queryCredentialsAsked.set(x, new Set()).get(x);
  if (!done || done.has(base.case.endpoint)) return;
  done.add(base.case.endpoint);
  // The vocabulary's credentials in the query, and any query name the target showed that reads like one.
  const credential = (c: (typeof x.pool)[number]) =>
    c.klass === 'credentials' || (c.source === 'target' && /key|token|auth|secret/i.test(c.name));
  const names = [...new Set(x.pool.filter((c) => c.channel === 'query' && credential(c)).map((c) => c.name))];
  const inQuery = async (some: readonly string[]) => {
    const keyedQuery = some.map((name) => ({ name, key: { slot: 'test' as const } }));
    const words = `the test key in the query as ${some.map((n) => `${n}=$API_TEST_KEY`).join('&')}`;
    return keep(x, base, 'headers', { inputs: [], shape: {}, headers: words }, { changed: { keyedQuery } });
  };
  if (names.length === 0) return;
  const all = await inQuery(names);
  if (names.length === 1 || all.status < 200 || all.status >= 300) return;
  for (const name of names) await inQuery([name]);
}
