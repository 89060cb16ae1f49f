/**
 * Pure check that two listings share no record (MODE-ISOLATION, MER-ISOLATION): "Objects created in one mode
 * are not accessible from the other" (§1), and a merchant's listing holds only that merchant's payments.
 * Records are compared by identity per reading.md: the `id` field when every record of both sets has one,
 * otherwise the record's whole JSON.
 */

import type { Exchange } from '../core/model/exchange.ts';
import { identity, readEnvelope } from '../core/model/listing.ts';
import type { IsolatedListing } from '../core/model/result-set.ts';
import type { RuleId } from '../core/model/rules.ts';
import type { Violation } from '../core/model/verdict.ts';

const SHOWN = 3;

/** The records both listings hold, by identity; a violation of `rule` naming them and the pages holding one. */
export function sharedRecordsViolation(
  rule: Extract<RuleId, 'MODE-ISOLATION' | 'MER-ISOLATION'>,
  a: IsolatedListing,
  b: IsolatedListing,
): Violation | undefined {
  const id = identity([...a.records, ...b.records]);
  const inA = new Set(a.records.map(id));
  const shared = [...new Set(b.records.map(id))].filter((k) => inA.has(k));
  if (shared.length === 0) return undefined;
  const first = shared[0] as string;
  const pageOf = (l: IsolatedListing) =>
    l.pages.find((p) => readEnvelope(p.exchange)?.data.some((r) => id(r) === first))?.exchange;
  const shown = shared.slice(0, SHOWN).map(short).join(', ');
  return {
    // One id in two listings: no payment appearing explains it (a new one has an id of its own, in one listing).
    ...(first.startsWith('id:') ? { standsUnderGrowth: true as const } : {}),
    rule,
    expected: `no record in both ${a.label} (${a.records.length} records) and ${b.label} (${b.records.length} records)`,
    received: `${shared.length} shared record(s): ${shown}${shared.length > SHOWN ? ', …' : ''}`,
    exchange: pageOf(a),
    related: [pageOf(b)].filter((p): p is Exchange => p !== undefined),
  };
}

function short(identityKey: string): string {
  return identityKey.length > 80 ? `${identityKey.slice(0, 80)}…` : identityKey;
}
