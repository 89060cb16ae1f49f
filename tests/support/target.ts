import { DEPTH_PROFILES } from '../../core/model/depth.ts';
import type { Target } from '../../core/model/target.ts';
import type { MockEnv } from '../../mock/index.ts';
/** A complete `Target` for unit tests: loopback, no pacing, small limits; each test overrides what it needs. */

export function testTarget(over: Partial<Target> = {}): Target {
  return {
    baseURL: 'http://127.0.0.1:1',
    keys: { test: 'sk_test_UnitTestKey01' },
    merchants: { sandbox: 'msb_1' },
    defaultLimit: 10,
    profile: 'custom',
    bundledMock: false,
    loopback: true,
    maxRps: 0,
    maxRequests: 100,
    maxRecords: 2000,
    timeoutMs: 1000,
    strict: false,
    fcSeed: undefined,
    fcNumRuns: 5,
    depth: DEPTH_PROFILES.standard,
    maxTimeMs: 0,
    grep: undefined,
    ...over,
  };
}

/** A target with every key slot and all three merchants (the revoked key also as the old one): the access tests' own. */
export const everyKeyTarget = (over: Partial<Target> = {}): Target =>
  testTarget({
    keys: {
      test: 'sk_test_UnitTestKey01',
      live: 'sk_live_UnitLiveKey02',
      restricted: 'sk_test_UnitRestricted3',
      revoked: 'sk_test_UnitRevoked04x',
      old: 'sk_test_UnitRevoked04x',
    },
    merchants: { sandbox: 'msb_1', live: 'mlv_1', otherSandbox: 'msb_2' },
    ...over,
  });

/** The bundled mock (its env, mock/index.ts) as a target with every key and merchant it has: the door tests' own. */
export const mockTarget = (env: MockEnv, over: Partial<Target> = {}): Target =>
  testTarget({
    baseURL: env.API_BASE_URL,
    keys: {
      test: env.API_TEST_KEY,
      live: env.API_LIVE_KEY,
      restricted: env.API_RESTRICTED_KEY,
      revoked: env.API_REVOKED_KEY,
    },
    merchants: {
      sandbox: env.SANDBOX_MERCHANT_ID,
      live: env.LIVE_MERCHANT_ID,
      otherSandbox: env.OTHER_SANDBOX_MERCHANT_ID,
    },
    maxRequests: 2000,
    ...over,
  });
