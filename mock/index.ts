/**
 * The mock's one entry for code outside mock/: start it (port 0 = a free port), read its env, stop it; its
 * identity, its test-only CA, the fault catalogue (names, rules, descriptions) and the variant dimensions.
 * Used by the CLI, the suite's global setup and matrix runner, the scripts and the mock's self-tests.
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { issueKeys } from './auth.ts';
import { buildRefundStore, REFUND_LIMITS, REFUNDS_SHAPE } from './collections.ts';
import { DATA_PLANS, generateDataset } from './data.ts';
import { FAULTS as CATALOGUE, type Fault, scopedFaults, selectFaults as select, switchboard } from './faults/index.ts';
import { IDENTITY } from './identity.ts';
import { querySettings } from './params.ts';
import { API_PREFIX, COLLECTION_SUFFIXES } from './routes.ts';
import { createMockServer, type RecordedRequest } from './server.ts';
import type { Shapes } from './shapes.ts';
import { buildStore } from './store.ts';
import { resolveVariants, type VariantInput, type Variants } from './variants.ts';

export { type Calibration, CalibrationError, parseCalibration, readCalibration } from './calibration.ts';
export { mulberry32, STATUSES as PAYMENT_STATUSES } from './data.ts';
export { failureKind } from './errors.ts';
export { FaultError } from './faults/index.ts';
export { IDENTITY } from './identity.ts';
export type { RecordedRequest } from './server.ts';
export type { ErrorShape, Shapes, Template, Values } from './shapes.ts';
export {
  describeVariants,
  resolveVariants,
  VARIANT_DEFAULTS,
  VARIANT_DIMENSIONS,
  VariantError,
  type VariantInput,
  type VariantName,
} from './variants.ts';

/** A fault as seen from outside the mock: its name, the rule it breaks and what it does (its hooks stay inside). */
export type FaultInfo = Pick<Fault, 'name' | 'rule' | 'description'>;

/** The fault catalogue, in catalogue order. */
export const FAULTS: readonly FaultInfo[] = CATALOGUE;

/** The faults named, in catalogue order. Throws FaultError naming an unknown fault and listing the known ones. */
export const selectFaults: (names?: readonly string[]) => FaultInfo[] = select;

/** The collections the mock serves beside payments (an example, not the vendor's): a fault may be scoped to one. */
const MOCK_COLLECTIONS: readonly string[] = Object.keys(COLLECTION_SUFFIXES);

/**
 * Fault names as given (`NAME`, or `NAME@COLLECTION`: on that collection's requests only), checked: each by
 * collection ('' for payments and every other path). Throws FaultError for an unknown fault or collection.
 */
export const faultsByCollection = (names: readonly string[] = []) => scopedFaults(names, MOCK_COLLECTIONS);

export interface MockOptions {
  /** 0 = a free port (default). */
  port?: number;
  /** Default: the fixture's host. */
  host?: string;
  /** Default: the fixture's seed. */
  seed?: number;
  /** `{ 'over-limit': 'reject' }` or `['over-limit=reject', 'invalid=422,ties=reverse']`. */
  variants?: VariantInput;
  /** Fault names from FAULTS; `NAME@refunds` switches NAME on for the example collection's requests only. */
  faults?: string[];
  /** Where unexpected errors are reported; stderr by default. */
  log?: (line: string) => void;
  /** Serve HTTPS with the test-only certificate of mock/tls/ (trust it with NODE_EXTRA_CA_CERTS=TEST_CA). */
  tls?: boolean;
  /** Sees each request: method, target, and which issued key it carried (never the key). */
  onRequest?: (request: RecordedRequest) => void;
  /**
   * A data set that grows under its clients, as a busy shared sandbox does: after every `every`-th request (any
   * request, answered or refused), one new payment is appended to every listing (each merchant, each mode), so every
   * listing's total moves. Default: the data never changes.
   */
  grow?: { every: number };
  /** Requests allowed in any 1-second window; beyond that 429 with Retry-After (and RateLimit headers on every answer). */
  rateLimit?: number;
  /** Hold each request this long before answering (a target that far away). */
  latencyMs?: number;
  /** Shapes learned from another API by a calibration (shapes.ts), answered with the mock's own logic and data. */
  shapes?: Shapes;
}

/** The test-only CA that signed the mock's TLS certificate (mock/tls/README.md). */
export const TEST_CA = fileURLToPath(new URL('./tls/ca.pem', import.meta.url));
const tlsFile = (name: string) => readFileSync(new URL(`./tls/${name}`, import.meta.url), 'utf8');

/** What a client of this mock needs, as environment variables. */
export interface MockEnv {
  API_BASE_URL: string;
  API_TEST_KEY: string;
  API_LIVE_KEY: string;
  API_RESTRICTED_KEY: string;
  API_REVOKED_KEY: string;
  /** The key a rotation replaced: the mock's revoked key stands for it (deleted, so refused: 401). */
  API_OLD_KEY: string;
  SANDBOX_MERCHANT_ID: string;
  LIVE_MERCHANT_ID: string;
  OTHER_SANDBOX_MERCHANT_ID: string;
  API_DEFAULT_LIMIT: string;
}

export interface RunningMock {
  /** The base URL, with the API's path prefix when it has one (variant prefix=api): what API_BASE_URL says. */
  url: string;
  /** Scheme, host and port only. */
  origin: string;
  port: number;
  env: MockEnv;
  variants: Variants;
  faults: readonly string[];
  stop(): Promise<void>;
}

/**
 * Starts the mock. Rejects on a bad option (unknown variant or fault) or when the port cannot be bound.
 * `env` announces the keys as issued, so a key-format fault shows there; the default limit announced is
 * the fixture's, so a fault that changes the server's default is a deviation from what is announced.
 */
export async function startMock(opts: MockOptions = {}): Promise<RunningMock> {
  const variants = resolveVariants(opts.variants);
  const grow = opts.grow;
  if (grow !== undefined && !(Number.isSafeInteger(grow.every) && grow.every >= 1)) {
    throw new RangeError(`grow.every must be a positive integer, got ${grow.every}`);
  }
  const faults = opts.faults ?? [];
  const scoped = faultsByCollection(faults);
  const board = switchboard(scoped.get('') ?? []);
  const keys = issueKeys(board.auth);
  const dataset = generateDataset(opts.seed ?? IDENTITY.seed, DATA_PLANS[variants.data]);
  const store = buildStore(dataset, variants, opts.shapes?.statuses);
  const settings = querySettings(variants, board.params);
  const refundsBoard = switchboard(scoped.get('refunds') ?? []);
  const refunds = {
    board: refundsBoard,
    settings: querySettings(variants, refundsBoard.params, REFUND_LIMITS),
    shape: REFUNDS_SHAPE,
    store: buildRefundStore(dataset, variants),
  };
  const tls = opts.tls ? { cert: tlsFile('server.pem'), key: tlsFile('server.key') } : undefined;
  const server = createMockServer({
    store,
    keys,
    board,
    variants,
    settings,
    log: opts.log,
    tls,
    onRequest: opts.onRequest,
    grow,
    rateLimit: opts.rateLimit,
    latencyMs: opts.latencyMs,
    collections: { refunds },
    shapes: opts.shapes,
  });

  const host = opts.host ?? IDENTITY.host;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  // The base URL a client uses: the API's path prefix included (variant prefix).
  const origin = `${tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const url = `${origin}${API_PREFIX[variants.prefix]}`;

  const env: MockEnv = {
    API_BASE_URL: url,
    API_TEST_KEY: keys.slot('test').secret,
    API_LIVE_KEY: keys.slot('live').secret,
    API_RESTRICTED_KEY: keys.slot('restricted').secret,
    API_REVOKED_KEY: keys.slot('revoked').secret,
    API_OLD_KEY: keys.slot('revoked').secret,
    SANDBOX_MERCHANT_ID: IDENTITY.merchants.sandbox,
    LIVE_MERCHANT_ID: IDENTITY.merchants.live,
    OTHER_SANDBOX_MERCHANT_ID: IDENTITY.merchants.otherSandbox,
    API_DEFAULT_LIMIT: String(IDENTITY.defaultLimit),
  };

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    return stopping;
  };
  return { url, origin, port, env, variants, faults: [...faults], stop };
}
