/**
 * Doors: inputs the spec does not document (reading "Inputs the spec does not document") — query parameters, headers,
 * cookies, other spellings of the credential and of the merchant id — that the suite adds to the requests it already
 * sends, to see whether any widens what an answer shows. A candidate input is a name and a value in one place of the
 * request, with where it came from (its source) and what it may carry (its class). core/generate/door-candidates.ts
 * builds them, core/run/doors.ts sends them in batches and splits a batch only where its answer differs.
 */
import type { AccessCase, AccessExpectation } from './access.ts';
import { KEY_VARS, type KeySlot } from './credentials.ts';
import type { DoorSource } from './door-tally.ts';
import type { Exchange, KeyRef } from './exchange.ts';
import type { PageRequest } from './listing.ts';
import type { RuleId } from './rules.ts';

/** What a name may carry: whose data, how much of it, which mode, in which form, a credential, a debugging switch. */
export const DOOR_CLASSES = ['identity', 'scope', 'mode', 'format', 'credentials', 'debug'] as const;
export type DoorClass = (typeof DOOR_CLASSES)[number];

/** The part of a request a candidate goes in. */
export const CHANNELS = ['query', 'header', 'cookie'] as const;
export type Channel = (typeof CHANNELS)[number];

/**
 * A value a vocabulary entry gives its name: literal text, or one taken from the run — another configured merchant's
 * id (`{merchant}`), another merchant's listing path (`{path}`), a configured key (`{key}`: in a header or cookie only,
 * never in a URL).
 */
export type ValueTemplate = string;
export const TEMPLATES = ['{merchant}', '{path}', '{key}'] as const;

/** One name of a vocabulary, with the places it goes, its class and where it comes from. */
export interface VocabularyEntry {
  name: string;
  in: Channel[];
  class: DoorClass;
  /** Where the name comes from (a tool's word list, an RFC, a vendor's documentation), in a few words. */
  source: string;
  /** Its values, tried in turn; absent: its class's (core/generate/door-vocabulary.ts). */
  values?: ValueTemplate[];
}

/** A value as sent: text, or a configured key by its slot (the client writes the key at the last moment). */
export type DoorValue = string | KeyRef;

/** One candidate input: a name and its values in one channel, tried one value per batch. */
export interface Candidate {
  channel: Channel;
  name: string;
  /** The values tried in turn: batch i carries `values[i % values.length]`. */
  values: DoorValue[];
  source: DoorSource;
  klass: DoorClass;
}

/**
 * The names (and a value of each) an answer showed that a client could send back, as the watcher keeps them for the
 * door checks (core/run/watch.ts): headers it sent, header names it listed (a CORS answer's lists, Vary), cookies,
 * parameters of the links it wrote, its envelope's fields. Records' fields are the canonical listings' (the doors read
 * those themselves). Each list absent when empty.
 */
export interface Shown {
  headers?: Array<[string, string]>;
  headerNames?: string[];
  cookies?: Array<[string, string]>;
  linkParams?: Array<[string, string]>;
  envelopeFields?: Array<[string, string]>;
}

/** What a door request's candidates may take from the run: other merchants' ids and listing paths, keys (by slot). */
export interface RunValues {
  merchants: readonly string[];
  paths: readonly string[];
  keys: readonly KeySlot[];
}

/**
 * A request the suite already sends, to which the door checks add inputs: as the access oracle sees it, what its rule
 * allows, whether that is a refusal (no 2xx), the rules its answers can break, and what its candidates take.
 */
export interface DoorBase {
  /** In words: `no Authorization header on the sandbox merchant's payments`. */
  label: string;
  case: AccessCase;
  expectation: AccessExpectation;
  refused: boolean;
  rules: readonly RuleId[];
  values: RunValues;
}

/** What a door request added to its base. */
export interface Added {
  /** The candidates, each with the value it carried. */
  inputs: ReadonlyArray<{ candidate: Candidate; value: DoorValue }>;
  /** The documented query it was sent with (a shape of core/generate/query-shapes.ts). */
  shape: PageRequest;
  /** The merchant id spelled by an operator, as sent, and in words. */
  segment?: { name: string; segment: string };
  /** Documented headers left out or changed, in words. */
  headers?: string;
}

/** One door request: its base, what it added, why it was sent, and its answer. */
export interface DoorCase {
  base: DoorBase;
  /** The base of the suite it was derived from, when its own differs (a key changed by an operator). */
  of?: DoorBase;
  added: Added;
  kind: 'reference' | 'batch' | 'split' | 'shape' | 'spelling' | 'headers' | 'operator';
  exchange: Exchange;
}

/** What was added, in words: `with 84 inputs (?merchant_id=…, X-Api-Key: $API_TEST_KEY, …) and sort=-amount`. */
export function describeAdded(a: Added): string {
  const value = (v: DoorValue) => (typeof v === 'string' ? v : `$${KEY_VARS[v.slot]}`);
  const one = ({ candidate: c, value: v }: Added['inputs'][number]) =>
    c.channel === 'query'
      ? `?${c.name}=${value(v)}`
      : c.channel === 'header'
        ? `${c.name}: ${value(v)}`
        : `cookie ${c.name}=${value(v)}`;
  const parts: string[] = [];
  if (a.inputs.length === 1) parts.push((a.inputs[0] && one(a.inputs[0])) as string);
  else if (a.inputs.length > 1)
    parts.push(`${a.inputs.length} inputs (${a.inputs.slice(0, 3).map(one).join(', ')}, …)`);
  if (a.segment) parts.push(a.segment.name);
  if (a.headers) parts.push(a.headers);
  const q = Object.entries(a.shape).map(([k, v]) => `${k === 'status' ? 'filter[status]' : k}=${v}`);
  if (q.length) parts.push(q.join('&'));
  return parts.length ? `with ${parts.join(', ')}` : 'as the suite sends it';
}
