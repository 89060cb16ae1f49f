/**
 * The requests the suite already sends, as the door checks take them (core/run/doors.ts): each configured credential —
 * none, a never-issued key of the right form, the revoked key, the restricted key, the live and the test key — on
 * /merchant/status and on the listings it may or may not read, each with what the access oracle says its answer must
 * be. A refused one (no 2xx allowed) must stay refused whatever is added; an allowed one must show nothing more.
 */

import { expectedAccess } from '../../checks/access-oracle.ts';
import { CANONICAL, keyModes, merchantId } from '../generate/access-cases.ts';
import { unknownKeyOfValidFormat } from '../generate/key-mutations.ts';
import type { AccessCase, Credential, Endpoint, MerchantRole } from '../model/access.ts';
import { PAYMENTS } from '../model/collection.ts';
import type { DoorBase } from '../model/doors.ts';
import { paymentsPath, STATUS_PATH } from '../model/listing.ts';
import { RULES, type RuleId } from '../model/rules.ts';
import type { Target } from '../model/target.ts';

/** What an allowed request's answers can break, whatever is added to it (the catalogue's `opensAllowed`). */
const ALLOWED_RULES: readonly RuleId[] = RULES.flatMap((r) => ('opensAllowed' in r ? [r.id] : []));

/** The merchants a request on `role` may be turned to, in turn: the other configured ones. */
const othersOf = (t: Target, role: MerchantRole | undefined): Array<'otherSandbox' | 'live' | 'sandbox'> =>
  (['otherSandbox', 'live', 'sandbox'] as const).filter((m) => m !== role && t.merchants[m] !== undefined);

/** The credentials of the bases, by what they are; undefined where the configuration has no such key. */
function credentials(t: Target): Record<string, Credential | undefined> {
  return {
    none: { kind: 'none' },
    invalid: { kind: 'key', slot: 'test', mutation: unknownKeyOfValidFormat(t.keys.test) },
    revoked: t.keys.revoked ? { kind: 'key', slot: 'revoked' } : undefined,
    restricted: t.keys.restricted ? { kind: 'key', slot: 'restricted' } : undefined,
    live: t.keys.live ? { kind: 'key', slot: 'live' } : undefined,
    test: { kind: 'key', slot: 'test' },
  };
}

/** Which credential on which endpoint and merchant: the bases, refused ones first in the order of the rules. */
const PLAN: ReadonlyArray<[cred: string, endpoint: Endpoint, merchant: MerchantRole]> = [
  ['none', 'status', 'sandbox'],
  ['none', 'list', 'sandbox'],
  ['invalid', 'status', 'sandbox'],
  ['invalid', 'list', 'sandbox'],
  ['revoked', 'status', 'sandbox'],
  ['revoked', 'list', 'sandbox'],
  ['invalid', 'list', 'unknown'],
  ['restricted', 'list', 'sandbox'],
  ['live', 'list', 'sandbox'],
  ['test', 'list', 'sandbox'],
  ['test', 'list', 'live'],
  ['live', 'list', 'live'],
];

/** The path a base is sent to. */
export const basePath = (t: Target, c: AccessCase): string =>
  c.endpoint === 'status' ? STATUS_PATH : paymentsPath(merchantId(t, c.merchant));

/**
 * Every base the configuration allows, with the access oracle's expectation. The live
 * merchant's bases need LIVE_MERCHANT_ID; a credential not configured leaves its bases out.
 */
export function doorBases(t: Target): DoorBase[] {
  const creds = credentials(t);
  const modes = keyModes(t);
  const keys = (role: MerchantRole) =>
    role === 'live' && t.keys.live ? (['live', 'test'] as const) : (['test'] as const);
  return PLAN.flatMap(([name, endpoint, merchant]): DoorBase[] => {
    const credential = creds[name];
    if (!credential || (merchant === 'live' && !t.merchants.live)) return [];
    const c: AccessCase = { collection: PAYMENTS, credential, spelling: CANONICAL, endpoint, merchant, query: {} };
    const expectation = expectedAccess(c, modes);
    const refused = !expectation.allowed(200) && !expectation.allowed(204);
    const others = othersOf(t, endpoint === 'list' ? merchant : undefined);
    return [
      {
        label: expectation.what,
        case: c,
        expectation,
        refused,
        rules: refused ? [expectation.rule, 'KEY-SECRET'] : ALLOWED_RULES,
        values: {
          merchants: others.map((m) => t.merchants[m] as string),
          paths: others.map((m) => paymentsPath(t.merchants[m] as string)),
          keys: [...keys(merchant), ...(t.keys.revoked ? (['revoked'] as const) : [])],
        },
      },
    ];
  });
}
