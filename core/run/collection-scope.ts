/**
 * Which collection's list a request's path names, for the watcher of every answer (core/run/watch.ts): a collection's
 * path template with its parameters put in, as a router may take it (its fixed segments in any case, slashes doubled,
 * one more at the end), `{merchantId}` matching any spelling of an id (folded to a configured merchant). Its records
 * are then tagged with their collection (none: the spec's payments), so that a refund and a payment sharing an id are
 * never taken for one record (checks/provenance.ts).
 */
import { type Collection, collectionPath } from '../model/collection.ts';
import type { Holder, Scope } from '../model/provenance.ts';
import type { Target } from '../model/target.ts';

const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The path of a collection as a pattern (built once per collection: the watcher asks for every answer). */
const patterns = new WeakMap<Collection, RegExp>();
function patternOf(c: Collection): RegExp {
  let p = patterns.get(c);
  if (!p) {
    p = buildPattern(c);
    patterns.set(c, p);
  }
  return p;
}

/** `{merchantId}` any spelling of an id (slashes too), other parameters their values; slashes one or more. */
function buildPattern(c: Collection): RegExp {
  const parts = c.path.split(/(\{[^{}/]+\})/).map((part) => {
    const name = /^\{([^{}/]+)\}$/.exec(part)?.[1];
    if (name === undefined) return literal(part).replace(/\//g, '/+');
    return name === 'merchantId' ? '(.+?)' : literal(encodeURIComponent(c.params[name] ?? ''));
  });
  return new RegExp(`^${parts.join('')}/*$`, 'i');
}

/** The collection a path names, and the merchant (a configured one by role, else `unknown`) where it has one. */
export function collectionScope(
  path: string,
  t: Target,
  collections: readonly Collection[],
  fold: (id: string) => string,
): Pick<Scope, 'endpoint' | 'collection' | 'merchant'> | undefined {
  const bare = path.split('?')[0] as string;
  for (const c of collections) {
    const m = patternOf(c).exec(bare);
    if (!m) continue;
    const collection = c.spec ? {} : { collection: c.name };
    if (c.access.scope === 'account') return { endpoint: 'list', ...collection };
    const id = fold(m[1] ?? '');
    const roles = Object.entries(t.merchants) as Array<[Holder, string | undefined]>;
    const merchant = roles.find(([, v]) => v !== undefined && fold(v) === id)?.[0] ?? 'unknown';
    return { endpoint: 'list', ...collection, merchant };
  }
  return undefined;
}

/** Whether a path is the canonical path of the collection's listing for the scope's merchant (or the account). */
export function isOwnCollectionPath(path: string, t: Target, c: Collection, s: Scope): boolean {
  if (c.access.scope === 'account') return path === collectionPath(c);
  const merchant = s.merchant && s.merchant !== 'unknown' ? t.merchants[s.merchant] : undefined;
  return merchant !== undefined && path === collectionPath(c, merchant);
}

/** The collections the restricted key may list (the file says it may, or does not say): no finding to show them. */
export const restrictedMayList = (collections: readonly Collection[]) =>
  collections.filter((c) => c.access.restrictedKey !== 'forbidden').map((c) => c.name);
