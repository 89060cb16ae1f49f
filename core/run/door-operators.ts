/**
 * The door checks' operators (core/run/doors.ts): the credential and the merchant id changed by the mutation operators
 * of core/generate/operators.ts — their deterministic core on every run, and a few drawn from the run's seed beside —
 * and the documented header of /merchant/status left out or changed. Each request is a door case of the base whose
 * credential or path it changes; the access oracle says what its answer must be.
 */
import fc from 'fast-check';
import { expectedAccess } from '../../checks/access-oracle.ts';
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

/** Sends one operator's request as a case of `base`, counted on `of` (the base it was derived from). */
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
