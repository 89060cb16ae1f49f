/**
 * Merchant access by mode, then permission (§5.5, §5.6, §7; reading "Keys, modes, merchants").
 * Runs after authentication: only a valid key learns whether a merchant exists.
 */
import type { KeyRecord } from './auth.ts';
import { listingKey, type Merchant, type Mode } from './data.ts';
import { type Failure, MESSAGES, reject } from './errors.ts';
import type { Board, RequestFacts, RouteKind } from './hooks.ts';
import { resolveMerchantId } from './lookup.ts';
import type { Store } from './store.ts';
import type { Variants } from './variants.ts';

/** The access decision for one merchant and mode: the listings served, or a failure. Faults may rewrite it. */
export interface Access {
  merchantId: string;
  merchant: Merchant | undefined;
  mode: Mode;
  listing: string[];
  failure: Failure | undefined;
}

/** What a refusal of the listing could send along (only faults do): the page a listing would have served. */
interface Refusal {
  access: Access;
  request: RequestFacts;
  /** The page of the request's query over these listings (listingKey), as the listing would serve it. */
  preview(listings: readonly string[]): readonly unknown[];
}

/** Where faults hook into authorization: merchant and mode, then permission. */
export interface AuthorizeHooks {
  /** Rewrite the access decision (merchant and mode). */
  access?(access: Access, request: RequestFacts): void;
  /** Rewrite the permission decision. */
  permission?(check: PermissionCheck, request: RequestFacts): void;
  /** Rewrite a refusal of the listing (mode, merchant or permission), once decided. */
  refused?(failure: Failure, refusal: Refusal): void;
}

export function decideAccess(
  store: Store,
  board: Board<AuthorizeHooks>,
  variants: Variants,
  merchantId: string,
  mode: Mode,
  request: RequestFacts,
): Access {
  // The lookup in force (variant merchant-lookup) finds the canonical merchant; mode and permission are checked on it.
  const merchant = store.merchant(resolveMerchantId(variants['merchant-lookup'], merchantId));
  const access: Access = { merchantId, merchant, mode, listing: [], failure: undefined };
  if (!merchant) {
    access.failure =
      variants['unknown-merchant'] === '403'
        ? reject(403, MESSAGES.merchantForbidden)
        : reject(404, MESSAGES.merchantNotFound);
  } else if (merchant.kind === 'sandbox' && mode === 'live') {
    // Only test keys can be used with sandbox merchants (§5.6); the other mode's object is "not found" (§7).
    access.failure = reject(404, MESSAGES.otherMode);
  } else {
    // A live merchant's test payments sit alongside its live ones; each mode sees only its own (§1, §5.5).
    access.listing = [listingKey(merchant.id, mode)];
  }
  for (const rewrite of board.access) rewrite(access, request);
  return access;
}

/** The permission decision for a valid key on an endpoint (and the list's merchant). Faults may rewrite it. */
interface PermissionCheck {
  route: RouteKind;
  key: KeyRecord;
  merchant: Merchant | undefined;
  failure: Failure | undefined;
}

export function checkPermission(
  board: Board<AuthorizeHooks>,
  key: KeyRecord,
  merchant: Merchant | undefined,
  request: RequestFacts,
): Failure | undefined {
  // /merchant/status only checks that the key is accepted; the list needs payments:read.
  const { route } = request;
  const needsRead = route === 'list' && !key.permissions.includes('payments:read');
  const failure = needsRead ? reject(403, MESSAGES.forbidden) : undefined;
  const check: PermissionCheck = { route, key, merchant, failure };
  for (const rewrite of board.permission) rewrite(check, request);
  return check.failure;
}
