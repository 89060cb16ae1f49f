/**
 * First contact with every declared collection (--collections): the preflight asks each one's listing once, with a key
 * that may list it on its own merchant (the test key on the sandbox merchant, unless the collection is the live key's
 * alone), before any check. A 404 there, or an HTML page, says the file's path is not where the target serves the
 * listing: a set-up mistake (exit 2) that names the collection, the path and what came back, in seconds — not two
 * minutes of MUST rules failing on the same 404. Any other answer goes on to the rules, which judge it.
 */
import { type Collection, collectionPath } from '../model/collection.ts';
import { KEY_VARS, type KeySlot } from '../model/credentials.ts';
import type { Target } from '../model/target.ts';
import { describeAnswer, type Seen } from './preflight-decision.ts';

/** One collection's first request: where, and with which key. */
export interface CollectionStep {
  collection: string;
  /** Where the collection was declared (`my-collections.json line 4 (/collections/0)`). */
  source: string;
  path: string;
  auth: KeySlot;
}

/** The request that asks each collection's listing, with a key of its own that is configured; none when none is. */
export function collectionSteps(target: Target, collections: readonly Collection[]): CollectionStep[] {
  const steps: CollectionStep[] = [];
  for (const c of collections) {
    // The test key on the sandbox merchant, as for payments; the live key on the live merchant for a live-only one.
    const test = c.access.modes.includes('test');
    const auth: KeySlot = test ? 'test' : 'live';
    const merchant = test ? target.merchants.sandbox : target.merchants.live;
    if (!target.keys[auth] || (c.access.scope === 'merchant' && !merchant)) continue;
    steps.push({ collection: c.name, source: c.source, path: collectionPath(c, merchant ?? ''), auth });
  }
  return steps;
}

/** The set-up mistakes among what the collections' requests saw: a 404 or an HTML page, each named. */
export function unservedCollections(seen: ReadonlyArray<CollectionStep & { seen: Seen }>): string[] {
  const problems: string[] = [];
  for (const s of seen) {
    if (s.seen.kind !== 'answer' || (s.seen.status !== 404 && s.seen.body !== 'html')) continue;
    const file = s.source.replace(/ line \d+.*$| \(.*$/, '');
    problems.push(
      `Collection ${s.collection} (${s.source}): GET ${s.path}?limit=1 with ${KEY_VARS[s.auth]} answered ${describeAnswer(s.seen)}, so the target does not serve this listing there: check its path in ${file} (it is appended to API_BASE_URL).`,
    );
  }
  return problems;
}
