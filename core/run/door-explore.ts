/**
 * How the door checks go through one request (core/run/doors.ts): the candidates in batches — as many query
 * parameters, headers and cookies in one request as it can carry — each batch split in halves only where its answer
 * differs from the plain request's beyond what echoes the request, down to the input that made the difference (how
 * Arjun and Param Miner find parameters: thousands of names in a few dozen requests).
 *
 * A refused request (no 2xx allowed) is sent in every shape of the query covering array (query-shapes.ts), a batch in
 * each; a 2xx opened it, and is split to the smallest set of inputs that still opens it; an answer its rule does not
 * expect (a 400 for a parameter the server refuses) masks the batch, so the shape is asked plain as well. An allowed
 * request is compared with its references: itself twice and with a random parameter nobody knows (what echoes).
 */
import type { ApiClient } from '../client/http.ts';
import { type CandidateSpec, resolveCandidates } from '../generate/door-candidates.ts';
import { queryShapes } from '../generate/query-shapes.ts';
import { type AnswerShape, type EchoModel, learnEcho, sameAnswer, shapeOf } from '../model/answer-shape.ts';
import type { DoorTally } from '../model/door-tally.ts';
import type { Added, Candidate, DoorBase, DoorCase, DoorValue } from '../model/doors.ts';
import type { Exchange, ExtraInputs } from '../model/exchange.ts';
import { is2xx } from '../model/exchange.ts';
import type { PageRequest } from '../model/listing.ts';
import type { Target } from '../model/target.ts';
import { sendDoor } from './door-send.ts';

type Input = Added['inputs'][number];

/** An allowed answer's validators: its entity tag, its date (Last-Modified, else Date), the query it answered. */
export interface Validators {
  etag?: string;
  lastModified?: string;
  shape: PageRequest;
}

/** The validators of the first 2xx answer on each path among `answers` (the doors' learned pages, GET). */
export function validatorsOf(answers: readonly Exchange[]): Map<string, Validators> {
  const out = new Map<string, Validators>();
  for (const e of answers) {
    if (out.has(e.path) || !is2xx(e.status) || e.method !== 'GET') continue;
    const q = new Map(e.query.map(([name, value]) => [name, value] as const));
    const shape: PageRequest = {
      ...(q.has('offset') ? { offset: Number(q.get('offset')) } : {}),
      ...(q.has('limit') ? { limit: Number(q.get('limit')) } : {}),
    };
    const lastModified = e.headers['last-modified'] ?? e.headers.date;
    out.set(e.path, {
      ...(e.headers.etag ? { etag: e.headers.etag } : {}),
      ...(lastModified ? { lastModified } : {}),
      shape,
    });
  }
  return out;
}

/** What one exploration shares: the client, the candidates, the budget for splits, where its cases and tallies go. */
export interface Explorer {
  api: ApiClient;
  t: Target;
  pool: readonly CandidateSpec[];
  /** Requests left for splitting batches (the depth's budget), and at most this many per request of the suite. */
  budget: { left: number; perBase: number };
  cases: DoorCase[];
  tally: Map<DoorBase, DoorTally>;
  /** The inputs already counted on each base (a candidate with one value, once, whatever the shapes it went with). */
  counted: Map<DoorBase, Set<string>>;
  /**
   * What the target handed out to validate an allowed answer (RFC 9110 §8.8), by path: the first learned answer there
   * (core/run/doors.ts), with the query it was asked with (core/run/door-operators.ts makes refused requests
   * conditional on them).
   */
  validators?: ReadonlyMap<string, Validators>;
}

/** Batches on an allowed request: each candidate's first two values (another merchant, then a third). */
const ALLOWED_ROUNDS = 2;
/** At most this many inputs of a channel in one request: a URL and a header block a server takes. */
const PER_REQUEST = { query: 100, header: 50, cookie: 40 } as const;

/**
 * A random parameter nobody knows, the same for a target on every run (seed-independent; its host and path, not its
 * port: the bundled mock listens on another one each run).
 */
function inertParameter(t: Target): [string, string] {
  const url = new URL(t.baseURL);
  let h = 2166136261;
  for (const c of `${url.hostname}${url.pathname}`) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  const word = h.toString(36).padStart(7, 'q').slice(0, 7);
  return [`zq${word}`, `${[...word].reverse().join('')}x`];
}

/** The inputs of a batch: each candidate with its `i`-th value (in turn). */
const batchOf = (cands: readonly Candidate[], i: number): Input[] =>
  cands.map((candidate) => ({ candidate, value: candidate.values[i % candidate.values.length] as DoorValue }));

/** A batch cut to what one request carries, channel by channel. */
function chunks(inputs: readonly Input[]): Input[][] {
  const out: Input[][] = [];
  const used = new Map<number, Record<string, number>>();
  for (const input of inputs) {
    const ch = input.candidate.channel;
    let k = 0;
    while ((used.get(k)?.[ch] ?? 0) >= PER_REQUEST[ch]) k += 1;
    used.set(k, { ...used.get(k), [ch]: (used.get(k)?.[ch] ?? 0) + 1 });
    out[k] = [...(out[k] ?? []), input];
  }
  return out;
}

/** Sends a door request and keeps it as a case. */
async function send(x: Explorer, base: DoorBase, added: Added, kind: DoorCase['kind'], changed?: ExtraInputs) {
  const exchange = await sendDoor(x.api, x.t, base, added, changed);
  x.cases.push({ base, added, kind, exchange });
  return exchange;
}

/** Counts the inputs tried on a base, by source: each candidate with each of its values once. */
function count(x: Explorer, base: DoorBase, inputs: readonly Input[]): void {
  const tally = x.tally.get(base) ?? {};
  const counted = x.counted.get(base) ?? new Set<string>();
  for (const { candidate: c, value } of inputs) {
    const key = `${c.channel}\n${c.name}\n${typeof value === 'string' ? value : `$${value.slot}`}`;
    if (counted.has(key)) continue;
    counted.add(key);
    tally[c.source] = (tally[c.source] ?? 0) + 1;
  }
  x.tally.set(base, tally);
  x.counted.set(base, counted);
}

/**
 * Splits `inputs` in halves while an answer is still `interesting`, within the budget: the smallest sets of inputs
 * that keep it so. `spent` counts this request's splits.
 */
async function split(
  x: Explorer,
  base: DoorBase,
  inputs: readonly Input[],
  shape: PageRequest,
  interesting: (e: Exchange) => boolean,
  spent: { n: number },
): Promise<void> {
  if (inputs.length <= 1) return;
  const half = Math.ceil(inputs.length / 2);
  for (const part of [inputs.slice(0, half), inputs.slice(half)]) {
    if (x.budget.left <= 0 || spent.n >= x.budget.perBase) return;
    x.budget.left -= 1;
    spent.n += 1;
    const e = await send(x, base, { inputs: part, shape }, 'split');
    if (interesting(e)) await split(x, base, part, shape, interesting, spent);
  }
}

/** The rounds of candidate values a base gets: `rounds`, or one at strength 1 (quick). */
const roundsAt = (x: Explorer, rounds: number) => (x.t.depth.strength === 1 ? 1 : rounds);

/** A refused request: every shape of the query with a batch; a 2xx is split to its door, a masked batch asked plain. */
export async function exploreRefused(x: Explorer, base: DoorBase): Promise<void> {
  const cands = resolveCandidates(x.pool, base.values);
  const list = base.case.endpoint === 'list';
  // At strength 1 (quick) one round: the candidates' first values in the first shape (the access matrix sends the
  // shapes themselves).
  const shapes = (list ? queryShapes(x.t.defaultLimit, x.t.depth.strength) : [{}, {}]).slice(
    0,
    roundsAt(x, Number.POSITIVE_INFINITY),
  );
  const spent = { n: 0 };
  const opened = (e: Exchange) => is2xx(e.status);
  for (const [i, shape] of shapes.entries()) {
    const inputs = batchOf(cands, i);
    count(x, base, inputs);
    let askedPlain = false;
    for (const chunk of chunks(inputs)) {
      const e = await send(x, base, { inputs: chunk, shape }, 'batch');
      if (opened(e)) await split(x, base, chunk, shape, opened, spent);
      else if (!base.expectation.allowed(e.status) && !askedPlain) {
        // Masked: an input the server refuses hides the others and the shape; the shape alone is still judged.
        askedPlain = true;
        await send(x, base, { inputs: [], shape }, 'shape');
      }
    }
  }
}

/** The references of an allowed request: plain twice, and with the inert parameter (what echoes, what moves). */
async function references(
  x: Explorer,
  base: DoorBase,
): Promise<{ plain: AnswerShape; inert: AnswerShape; echo: EchoModel }> {
  const [name, value] = inertParameter(x.t);
  const inertCandidate: Candidate = { channel: 'query', name, values: [value], source: 'target', klass: 'debug' };
  const p1 = shapeOf(await send(x, base, { inputs: [], shape: {} }, 'reference'));
  const p2 = shapeOf(await send(x, base, { inputs: [], shape: {} }, 'reference'));
  const r = shapeOf(await send(x, base, { inputs: [{ candidate: inertCandidate, value }], shape: {} }, 'reference'));
  return { plain: p1, inert: r, echo: learnEcho(p1, p2, r) };
}

/**
 * An allowed request: a batch per value in turn, each compared with the references; a 2xx that differs beyond the echo
 * is split to the inputs that change it (what the server honours), judged by what it shows; a batch refused as the
 * random parameter is (a server that refuses what it does not know) hides nothing more.
 */
export async function exploreAllowed(x: Explorer, base: DoorBase): Promise<void> {
  const cands = resolveCandidates(x.pool, base.values);
  const ref = await references(x, base);
  const spent = { n: 0 };
  const echoed = (inputs: readonly Input[]) =>
    inputs.flatMap(({ candidate, value }) => [candidate.name, ...(typeof value === 'string' ? [value] : [])]);
  const differs = (inputs: readonly Input[]) => (e: Exchange) => {
    const s = shapeOf(e);
    if (sameAnswer(ref.plain, s, ref.echo, echoed(inputs))) return false;
    // Refused as the random parameter was: the server refuses what it does not know.
    return !(s.status === ref.inert.status && ref.inert.status !== ref.plain.status);
  };
  for (let i = 0; i < roundsAt(x, ALLOWED_ROUNDS); i++) {
    const inputs = batchOf(cands, i);
    count(x, base, inputs);
    for (const chunk of chunks(inputs)) {
      const e = await send(x, base, { inputs: chunk, shape: {} }, 'batch');
      if (differs(chunk)(e)) await split(x, base, chunk, {}, differs(chunk), spent);
    }
  }
}
