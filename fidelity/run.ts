/**
 * What a fidelity run asks of each target: its first page of every listing the cases read (its own totals, the
 * statuses and filter values it shows, its record ids), then every case, in order.
 */
import { fetchPage } from '../core/client/http.ts';
import { PAYMENTS } from '../core/model/collection.ts';
import { asKey } from '../core/model/credentials.ts';
import { listingOf, MAX_LIMIT, readEnvelope } from '../core/model/listing.ts';
import { statusOf } from '../core/model/result-set.ts';
import { redact } from '../core/model/secrets.ts';
import type { Case, CollectionCases } from './cases.ts';
import { type Answer, ask, type Side } from './targets.ts';

/** What the first pages showed, over every target: statuses, and each collection's filter values by field. */
export interface Seen {
  statuses: string[];
  values: Record<string, Record<string, string[]>>;
}

/** Ids of the records of a page, kept on the side (a learned shape never carries one). */
function keepIds(s: Side, data: readonly unknown[]) {
  for (const r of data) {
    const id = (r as { id?: unknown } | null)?.id;
    if (typeof id === 'string' && id.length >= 4) s.ids.strings.add(id);
    if (typeof id === 'number') s.ids.numbers.add(id);
  }
}

/** One target's first pages: its totals and ids kept on the side, what it shows added to `seen`. */
async function firstPagesOf(s: Side, seen: { statuses: Set<string>; values: Map<string, Map<string, Set<string>>> }) {
  const env = readEnvelope(
    await fetchPage(s.api, listingOf(PAYMENTS, s.target.merchants.sandbox, 'test'), { offset: 0, limit: MAX_LIMIT }),
  );
  s.totals.set('', env?.total ?? 0);
  keepIds(s, env?.data ?? []);
  for (const status of env?.data.map(statusOf) ?? []) {
    if (typeof status !== 'string') continue;
    seen.statuses.add(status);
    s.statuses.set(status, (s.statuses.get(status) ?? 0) + 1);
  }
  for (const [name, collection] of s.collections) {
    const listing = { merchant: s.target.merchants.sandbox, auth: asKey('test'), collection };
    const page = readEnvelope(await fetchPage(s.api, listing, { offset: 0, limit: collection.maxLimit ?? MAX_LIMIT }));
    s.totals.set(name, page?.total ?? 0);
    keepIds(s, page?.data ?? []);
    const fields = seen.values.get(name) ?? new Map<string, Set<string>>();
    seen.values.set(name, fields);
    for (const f of collection.filters) {
      const values = fields.get(f.field) ?? new Set<string>();
      fields.set(f.field, values);
      const shown =
        f.values === 'learn' ? (page?.data ?? []).map((r) => (r as Record<string, unknown>)[f.field]) : f.values;
      for (const v of shown) if (typeof v === 'string' && v !== '') values.add(v);
    }
  }
}

/** Every target's first pages; undefined when one does not answer (said on `err`). */
export async function firstPages(sides: readonly Side[], err: (line: string) => void): Promise<Seen | undefined> {
  const seen = { statuses: new Set<string>(), values: new Map<string, Map<string, Set<string>>>() };
  for (const s of sides) {
    try {
      await firstPagesOf(s, seen);
    } catch (error) {
      err(redact(`fidelity: ${s.file} (${s.name}) did not answer: ${(error as Error).message}`));
      return undefined;
    }
  }
  const values = Object.fromEntries(
    [...seen.values].map(([name, fields]) => [
      name,
      Object.fromEntries([...fields].map(([f, v]) => [f, [...v].sort()])),
    ]),
  );
  return { statuses: [...seen.statuses].sort(), values };
}

/** The other collections' part of the case list, from the reference's declarations and what the targets showed. */
export function collectionCases(reference: Side, seen: Seen): CollectionCases[] {
  return [...reference.collections].map(([name, collection]) => ({ collection, values: seen.values[name] ?? {} }));
}

/** Every case asked of one target, in order (a string: why the case cannot be asked of it). */
export async function askAll(s: Side, cases: readonly Case[]): Promise<Map<string, Answer | string>> {
  const answers = new Map<string, Answer | string>();
  for (const c of cases) answers.set(c.id, await ask(s, c));
  return answers;
}

/** The variables a case needs that a target's file does not set. */
export const lacking = (sides: readonly Side[]) => (c: Case) =>
  c.needs.filter((v) => sides.some((s) => !s.env[v]?.trim()));

/** Why a case is skipped: the variables a target lacks for it, or nothing. */
export const skipWhenLacking = (sides: readonly Side[]) => (c: Case) => {
  const needs = lacking(sides)(c);
  return needs.length ? `needs ${needs.join(', ')}` : undefined;
};
