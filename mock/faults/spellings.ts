/**
 * Faults of merchant-id spellings (§5.2, §5.6, §1, §7): a lookup that folds the id one way while a check (mode,
 * permission, authentication, the listing's filter) reads it another — the router and the middleware disagree.
 * Each resolves a spelling to a merchant the clean mock would not find, then forgets one rule on it.
 */
import type { Access } from '../authorize.ts';
import { listingKey, MERCHANTS, type Merchant } from '../data.ts';
import { MESSAGES, reject } from '../errors.ts';
import type { RequestFacts } from '../hooks.ts';
import { casefold, findMerchant, nfkcCasefold, skeleton } from '../lookup.ts';
import { listSegment } from '../routes.ts';
import { type Fault, fault } from './fault.ts';

/** The merchant id segment of a list path (payments' or another collection's) as sent, decoded when it decodes. */
const segmentOf = (path: string): string => listSegment(path)?.decoded ?? '';

/** The access to `m` as a correct check would give it: its mode's listing, or 404 for a sandbox merchant in live mode. */
function resolveTo(a: Access, m: Merchant, listing?: string[]): void {
  a.merchant = m;
  if (m.kind === 'sandbox' && a.mode === 'live') {
    a.failure = reject(404, MESSAGES.otherMode);
    a.listing = [];
    return;
  }
  a.failure = undefined;
  a.listing = listing ?? [listingKey(m.id, a.mode)];
}

/** The sandbox merchant's test listing served whatever the key's mode: the mode check read another spelling. */
function modeSkipped(a: Access, m: Merchant): void {
  Object.assign(a, {
    merchant: m,
    failure: undefined,
    listing: [listingKey(m.id, m.kind === 'sandbox' ? 'test' : a.mode)],
  });
}

/** The id a router finds after decoding `/` and `\` and resolving dot-segments: the last segment that is left. */
function pathNormalised(id: string): string {
  const out: string[] = [];
  for (const part of id.split(/[/\\]/)) {
    if (part === '..') out.pop();
    else if (part !== '' && part !== '.') out.push(part);
  }
  return out.at(-1) ?? '';
}

const exact = (id: string) => MERCHANTS.find((m) => m.id === id);
/** A merchant whose id looks like `id` (same UTS #39 skeleton) though it is not `id`. */
const lookalike = (id: string) => (exact(id) ? undefined : findMerchant(id, skeleton));
/** A merchant an id with an encoded slash or backslash names once the router normalised the path. */
const behindSlash = (id: string) => (/[/\\]/.test(id) ? exact(pathNormalised(id)) : undefined);
/** A merchant whose id the (at least four-character) id is a proper prefix of, or that is a proper prefix of it. */
const byPrefix = (id: string) =>
  id.length < 4 || exact(id) ? undefined : MERCHANTS.find((m) => m.id.startsWith(id) || id.startsWith(m.id));
const trimmed = (id: string) => id.replace(/^[\s.]+|[\s.]+$/gu, '');

export const SPELLING_FAULTS: readonly Fault[] = [
  fault(
    'merchant-id-nfkc-mode-bypass',
    'MODE-LIVE-SANDBOX',
    'merchant ids are looked up by NFKC with case folding, the mode check compares the id as written with the sandbox list: a fullwidth ｍｓｂ_… lets the live key in',
    {
      access: (a) => {
        const m = a.merchant ? undefined : findMerchant(a.merchantId, nfkcCasefold);
        if (m) modeSkipped(a, m);
      },
    },
  ),
  fault(
    'merchant-id-live-lookup-nfkc',
    'MODE-LIVE-SANDBOX',
    "the live deployment's lookup folds ids by NFKC and skips the mode check the sandbox one makes: a fullwidth sandbox id, unknown to the test key, lists its payments to the live key",
    {
      access: (a) => {
        const m = a.merchant || a.mode !== 'live' ? undefined : findMerchant(a.merchantId, nfkcCasefold);
        if (m) modeSkipped(a, m);
      },
    },
  ),
  fault(
    'merchant-id-trim-permission-skip',
    'AUTH-FORBIDDEN',
    "the lookup trims white space and dots around the id, the permission check is bound to the merchant's exact id: the restricted key lists payments on msb_….",
    {
      access: (a) => {
        const m = a.merchant ? undefined : exact(trimmed(a.merchantId));
        if (m) resolveTo(a, m);
      },
      permission: (c, r: RequestFacts) => {
        if (c.route === 'list' && c.merchant && segmentOf(r.path) !== c.merchant.id) c.failure = undefined;
      },
    },
  ),
  fault(
    'merchant-id-confusable-no-auth',
    'AUTH-MISSING',
    'look-alike ids (a UTS #39 skeleton match, a "did you mean" fallback) are served by a route outside the auth middleware: an id with a Cyrillic or Ahom letter lists payments without a key',
    {
      unguarded: (r) => r.route === 'list' && lookalike(segmentOf(r.path)) !== undefined,
      access: (a) => {
        const m = a.merchant ? undefined : lookalike(a.merchantId);
        if (m) resolveTo(a, m);
      },
    },
  ),
  fault(
    'merchant-id-encoded-slash-no-auth',
    'AUTH-MISSING',
    'the auth middleware matches the decoded path against /payments/n1/merchant/:id/payments, which an id with %2F or %5C misses; the router then resolves the path (x/../id, id/) and serves the merchant without a key',
    {
      unguarded: (r) => r.route === 'list' && behindSlash(segmentOf(r.path)) !== undefined,
      access: (a) => {
        const m = a.merchant ? undefined : behindSlash(a.merchantId);
        if (m) resolveTo(a, m);
      },
    },
  ),
  fault(
    'merchant-id-prefix-group',
    'MER-ISOLATION',
    "a truncated or extended id is matched by prefix, and its listing joins every merchant of the id's type prefix (msb_): a spelling of one sandbox merchant lists the other's payments",
    {
      access: (a) => {
        const m = a.merchant ? undefined : byPrefix(a.merchantId);
        if (!m) return;
        const group = MERCHANTS.filter((g) => g.kind === m.kind && g.id.slice(0, 4) === m.id.slice(0, 4));
        resolveTo(
          a,
          m,
          group.map((g) => listingKey(g.id, a.mode)),
        );
      },
    },
  ),
  fault(
    'merchant-id-casefold-mode-mix',
    'MODE-ISOLATION',
    "the live merchant is found case-insensitively, but the listing's mode filter compares the id as written: MLV_… lists the test key the live payments too",
    {
      access: (a) => {
        const m = a.merchant ? undefined : findMerchant(a.merchantId, casefold);
        if (m?.kind !== 'live') return;
        resolveTo(a, m, [listingKey(m.id, 'test'), listingKey(m.id, 'live')]);
      },
    },
  ),
  fault(
    'merchant-id-as-pattern',
    'MER-ISOLATION',
    "the listing's lookup takes the merchant id for a SQL LIKE pattern (WHERE merchant_id LIKE :id): an id with % lists the payments of every merchant it matches, in the key's mode (after authentication and the permission check)",
    {
      access: (a, r) => {
        const id = segmentOf(r.path);
        if (a.merchant || !id.includes('%')) return;
        const re = new RegExp(
          `^${id
            .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
            .replaceAll('%', '.*')
            .replaceAll('_', '.')}$`,
        );
        const matched = MERCHANTS.filter((m) => re.test(m.id) && !(m.kind === 'sandbox' && a.mode === 'live'));
        const [first] = matched;
        if (first)
          resolveTo(
            a,
            first,
            matched.map((m) => listingKey(m.id, a.mode)),
          );
      },
    },
  ),
];
