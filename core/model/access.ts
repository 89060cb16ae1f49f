/**
 * The access matrix as data (payment-api.md §5, §7; reading "Keys, modes, merchants", "Methods"): a request as the
 * access rules see it — method, credential, header spelling, endpoint, collection, merchant, query — and what a rule
 * expects of its answer. The catalogue (core/model/rules.ts) says which cells each access rule owns;
 * checks/access-oracle.ts says which rule fixes the answer to any case; core/generate/access-cases.ts draws the cases
 * of each rule on each collection; core/run/access-property.ts sends them and asks the oracle.
 */

import type { Collection } from './collection.ts';
import type { Around, HeaderSpelling, KeyMutation, KeySlot } from './credentials.ts';
import { VALID_SLOTS } from './credentials.ts';
import type { SafeMethod } from './endpoints.ts';
import type { PageRequest } from './listing.ts';
import type { AccessRule } from './rules.ts';

export type MerchantRole = 'sandbox' | 'otherSandbox' | 'live' | 'unknown';
export type Endpoint = 'status' | 'list';

export type Credential =
  | { kind: 'none' }
  /** A made-up header value, never a secret (`Bearer not-a-key`, `''`). */
  | { kind: 'malformed'; header: string }
  /** A configured key, possibly mutated, possibly with more in the header `around` it (another credential). */
  | { kind: 'key'; slot: KeySlot; mutation?: KeyMutation; around?: Around };

export interface AccessCase {
  credential: Credential;
  spelling: HeaderSpelling;
  endpoint: Endpoint;
  /** Whose listing (ignored for `status`, and for an account-wide collection). */
  merchant: MerchantRole;
  /** The collection whose list the case asks (ignored for `status`). */
  collection: Collection;
  query: PageRequest;
  /** GET when absent. HEAD and OPTIONS are judged by the rule GET's request would have (reading "Methods"). */
  method?: SafeMethod;
  /** An OPTIONS sent as a CORS pre-flight (Origin, Access-Control-Request-Method: GET): judged as any OPTIONS. */
  preflight?: true;
}

export interface AccessExpectation {
  rule: AccessRule;
  allowed: (status: number) => boolean;
  /** The answer the rule requires, for the Expected line. */
  answer: string;
  /** What was sent, in words. */
  what: string;
  /** A 2xx answer must carry no listing and no record (OPTIONS: reading "Methods"). */
  noRecords?: true;
}

export function isValidCredential(c: Credential): boolean {
  return c.kind === 'key' && c.mutation === undefined && c.around === undefined && VALID_SLOTS.includes(c.slot);
}

/** Which mode each configured key works in. */
export type KeyModes = (slot: KeySlot) => 'test' | 'live';

/** What the run learned of a spelling, with the test key (which may list every configured merchant). */
export interface SpellingFacts {
  /** The test key got a 2xx there. */
  served: boolean;
  /** Served, and its listing holds a record of the merchant the id names: the target resolved it to that merchant. */
  resolved: boolean;
  /** Records in the answer judged that the credential may not see anywhere (a sandbox payment to the live key). */
  forbiddenRecords: number;
}

export interface SpelledCase {
  credential: Credential;
  merchant: Exclude<MerchantRole, 'unknown'>;
  /** What was changed, in words. */
  spelling: string;
  query: PageRequest;
}
