/**
 * Where a record may be seen (reading: "A refusal reveals nothing", "Keys, modes, merchants"). Every record the suite
 * reads on a listing is tagged with where it came from — the merchant and the key's mode (its provenance) — and every
 * answer of the run is tagged with who asked for what (its scope). checks/provenance.ts judges the two together: no
 * record appears in an answer to a request that may not see it, and a refusal carries no record of any listing.
 */

import type { KeySlot } from './credentials.ts';
import type { Shown } from './doors.ts';
import type { EndpointKind, SafeMethod } from './endpoints.ts';

/** The merchants of the configuration, by role. */
export type Holder = 'sandbox' | 'otherSandbox' | 'live';
type Mode = 'test' | 'live';

/**
 * Where a record was read: whose listing (a merchant's, or the account's for an account-wide collection), in which mode
 * (the mode of the key that listed it), of which collection (absent: payments; a refund and a payment may share an id).
 */
export interface Provenance {
  merchant: Holder | 'account';
  mode: Mode;
  collection?: string;
}

/**
 * Who presented what: no credential; one the target never issued (a made-up value, a tampered key, more than the key
 * in the header); a revoked or rotated-out key; a configured valid key (by its slot).
 */
export type Presenter = 'none' | 'invalid' | 'revoked' | Extract<KeySlot, 'test' | 'live' | 'restricted'>;

/** What a request asked for and as whom: what its answer may show. */
export interface Scope {
  presenter: Presenter;
  /** The mode of the presented key (a valid one). */
  mode?: Mode;
  method: SafeMethod;
  endpoint: EndpointKind;
  /** The merchant a list path names, folded to a configured one; `unknown` for any other id. */
  merchant?: Holder | 'unknown';
  /** The collection other than payments whose path the request names (its list: endpoint `list`). */
  collection?: string;
  /**
   * For the restricted key: the collections it may list (the collections file says it has the permission, or does not
   * say): their records in its answers are no finding of AUTH-FORBIDDEN.
   */
  mayList?: string[];
}

/** One answer of the run as the watcher keeps it: the request in words, its scope, and what the answer carried. */
export interface WatchedAnswer {
  /** The Playwright project that sent it (a proof run judges each project's answers apart). */
  project: string;
  /** The check that sent it, if any. */
  check: string | null;
  status: number;
  /** The request in words: method, path and query, credential (no key). */
  request: string;
  /** Its query parameters, as sent (name, value). */
  query: Array<[string, string]>;
  /** A curl line that reproduces it (the key as its variable). */
  curl: string;
  scope: Scope;
  /** For a listing a valid key may read: the records of its page, tagged with their provenance (each once per process). */
  learned?: { provenance: Provenance; records: unknown[] };
  /** Every other record-like object the answer carried (body, embedded JSON, headers), with where. */
  objects?: Array<{ where: string; value: Record<string, unknown> }>;
  /** Text that may hold a record written out of JSON (XML, HTML, `id=… amount=…`): a text body, long strings, headers. */
  texts?: Array<{ where: string; text: string }>;
  /** Where the answer gave a key back (never the key), when it did. */
  keyLeak?: string;
  /** Names it showed that a client could send back, those this process had not kept yet (the door checks read them). */
  shows?: Shown;
  /** The request was a CORS pre-flight (an OPTIONS with Access-Control-Request-Method). */
  preflight?: true;
  /**
   * A page of a payments listing a valid key may read, asked with the documented parameters only: the rules of a
   * single page it was judged by (checks/page.ts), and what it broke of them.
   */
  page?: { rules: string[]; flaws: Array<{ rule: string; expected: string; received: string }> };
  /**
   * A 2xx answer whose body has a `data` list, whatever was asked and by whom: how many entries it holds and the
   * `total` it gives (the cap over every answer: checks/page.ts `overTheCap`).
   */
  size?: { records: number; total?: number };
}

/** What watching every answer cost a run, in CPU milliseconds (`npm run bench` compares it with the run's CPU). */
export interface WatchCost {
  /** Answers kept. */
  answers: number;
  /** Keeping them (scope, records, objects, the line written), the key scan included. */
  observeMs: number;
  /** Of that, the key-leak scan of every answer. */
  keyScanMs: number;
  /** Judging them all (specs/every-answer.spec.ts). */
  judgeMs: number;
}
