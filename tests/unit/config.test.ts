import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { KEY_VARS } from '../../core/model/credentials.ts';
import { DEPTH_PROFILES } from '../../core/model/depth.ts';
import { closest } from '../../core/model/near-miss.ts';
import { REDACTED, redact } from '../../core/model/secrets.ts';
import type { Target } from '../../core/model/target.ts';
import {
  ConfigError,
  loadEnvFiles,
  nearMiss,
  resolveTarget as resolveWith,
  unknownVariables,
} from '../../core/run/config.ts';
import { runContext, runTarget } from '../../core/run/context.ts';
import { bundledMockEnv } from '../../fixtures/mock-target.ts';
import mockTarget from '../../mock/identity.json' with { type: 'json' };

/** The loader as the suite calls it: with the bundled mock's environment. */
const resolveTarget = (e: NodeJS.ProcessEnv) => resolveWith(e, bundledMockEnv);

const TEST_KEY = 'sk_test_CfgUnitTestKey0a1b2c3';
const LIVE_KEY = 'sk_live_CfgUnitLiveKey9z8y7x6';

/** A minimal valid custom-target environment, plus overrides (undefined removes a variable). */
function env(over: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {
    API_BASE_URL: 'https://api.example.com',
    API_TEST_KEY: TEST_KEY,
    SANDBOX_MERCHANT_ID: 'msb_unit01',
  };
  for (const [k, v] of Object.entries(over)) {
    if (v === undefined) delete out[k];
    else out[k] = v;
  }
  return out;
}

/** The problems of a config that must be rejected; fails the test when it is accepted. */
function problemsOf(e: NodeJS.ProcessEnv): { problems: string[]; message: string } {
  try {
    resolveTarget(e);
  } catch (error) {
    assert.ok(error instanceof ConfigError, `expected ConfigError, got ${String(error)}`);
    assert.equal(error.name, 'ConfigError');
    assert.ok(error.message.startsWith('Invalid conformance configuration (nothing was sent to the target):\n'));
    for (const p of error.problems) assert.ok(error.message.includes(`\n  - ${p}`), `message lists "${p}"`);
    return { problems: error.problems, message: error.message };
  }
  assert.fail('resolveTarget accepted an invalid configuration');
}

describe('KEY_VARS and the run context', () => {
  test('KEY_VARS maps each slot to its variable', () => {
    assert.deepEqual(KEY_VARS, {
      test: 'API_TEST_KEY',
      live: 'API_LIVE_KEY',
      restricted: 'API_RESTRICTED_KEY',
      revoked: 'API_REVOKED_KEY',
      old: 'API_OLD_KEY',
    });
  });

  const place = {
    reports: '/r',
    shard: null,
    matrixDir: '/r',
    files: { ledger: '/r/.requests', requestLog: '/r/.request-log', watch: '/r/.watch', checks: '/r/.checks' },
  };

  test('the run context: the mock port asked for (0: any free port), the seed given or picked, grep, strictness', () => {
    const bundled = resolveWith({}, bundledMockEnv);
    assert.equal(runContext(bundled, place, () => 7, {}).mockPort, 0);
    assert.equal(runContext(bundled, place, () => 7, { CONFORMANCE_MOCK_PORT: ' 4555 ' }).mockPort, 4555);
    assert.equal(runContext(bundled, place, () => 7, {}).seed, 7, 'picked when FC_SEED is unset');
    const env = { FC_SEED: '42', CONFORMANCE_STRICT: '1', CONFORMANCE_GREP: ' PAG- ' };
    const run = runContext(resolveWith(env, bundledMockEnv), place, () => 7, env);
    assert.deepEqual([run.seed, run.strict, run.grep, run.baseline], [42, true, 'PAG-', null]);
    assert.ok(!JSON.stringify(run).includes(mockTarget.keys.test), 'never a key');
  });

  test('a worker reads the target back: the settings from the run context, the keys from the environment', () => {
    const env = { API_BASE_URL: 'https://api.example', API_TEST_KEY: TEST_KEY, SANDBOX_MERCHANT_ID: 'msb_1' };
    const resolved = resolveWith(env, bundledMockEnv);
    const run = runContext(resolved, place, () => 9, env);
    const back = runTarget(run, env, bundledMockEnv);
    assert.deepEqual({ ...back, grep: undefined }, { ...resolved, fcSeed: 9, grep: undefined });
    assert.equal(runTarget(run, {}, bundledMockEnv).keys.test, undefined, 'no key in the run context');
  });

  test('a CONFORMANCE_MOCK_PORT that is not a port is a config error naming it', () => {
    for (const bad of ['abc', '-1', '70000', '80 80']) {
      const { problems } = problemsOf({ CONFORMANCE_MOCK_PORT: bad });
      assert.deepEqual(problems, ['CONFORMANCE_MOCK_PORT must be a port number (0 to 65535)']);
    }
  });
});

describe('resolveTarget: a valid custom target', () => {
  test('every field, with defaults, for a remote https target', () => {
    const t = resolveTarget(env({ API_BASE_URL: 'https://api.example.com/base//' }));
    const expected: Target = {
      baseURL: 'https://api.example.com/base',
      keys: { test: TEST_KEY },
      merchants: { sandbox: 'msb_unit01', live: undefined, otherSandbox: undefined },
      defaultLimit: 10,
      profile: 'custom',
      bundledMock: false,
      loopback: false,
      maxRps: 10,
      maxRequests: 5000,
      maxRecords: 2000,
      timeoutMs: 10_000,
      strict: false,
      fcSeed: undefined,
      fcNumRuns: 25,
      depth: DEPTH_PROFILES.standard,
      maxTimeMs: 0,
      grep: undefined,
    };
    assert.deepEqual(t, expected);
  });

  test('all key slots, merchants and numeric overrides are read and trimmed', () => {
    const t = resolveTarget(
      env({
        API_TEST_KEY: `  ${TEST_KEY}  `,
        API_LIVE_KEY: LIVE_KEY,
        API_RESTRICTED_KEY: 'sk_live_restrictedABC',
        API_REVOKED_KEY: 'sk_test_revokedDEF',
        API_OLD_KEY: 'sk_live_oldGHI',
        LIVE_MERCHANT_ID: ' mlv_live01 ',
        OTHER_SANDBOX_MERCHANT_ID: 'msb_other02',
        API_DEFAULT_LIMIT: '25',
        API_MAX_RPS: '3',
        API_MAX_REQUESTS: '42',
        API_MAX_RECORDS: '150',
        API_TIMEOUT_MS: '2500',
        CONFORMANCE_STRICT: '1',
        FC_SEED: '1712',
        FC_NUM_RUNS: '7',
      }),
    );
    assert.deepEqual(t.keys, {
      test: TEST_KEY,
      live: LIVE_KEY,
      restricted: 'sk_live_restrictedABC',
      revoked: 'sk_test_revokedDEF',
      old: 'sk_live_oldGHI',
    });
    assert.deepEqual(t.merchants, { sandbox: 'msb_unit01', live: 'mlv_live01', otherSandbox: 'msb_other02' });
    assert.equal(t.defaultLimit, 25);
    assert.equal(t.maxRps, 3);
    assert.equal(t.maxRequests, 42);
    assert.equal(t.maxRecords, 150);
    assert.equal(t.timeoutMs, 2500);
    assert.equal(t.strict, true);
    assert.equal(t.fcSeed, 1712);
    assert.equal(t.fcNumRuns, 7);
  });

  test('configured keys are registered as secrets (their Base64 form is redacted)', () => {
    const key = 'sk_test_RegisteredByResolve42';
    resolveTarget(env({ API_TEST_KEY: key }));
    const b64 = Buffer.from(key).toString('base64');
    assert.equal(redact(`auth ${b64} end`), `auth ${REDACTED} end`);
  });

  for (const [url, loopback] of [
    ['http://127.0.0.1:8080', true],
    ['http://localhost:3000/api', true],
    ['http://[::1]:9000', true],
    ['http://127.10.20.30', true],
    ['http://127.0.0.1.example.com', false],
    ['https://sandbox.example.com', false],
  ] as const) {
    test(`loopback ${loopback} and default maxRps ${loopback ? 0 : 10} for ${url}`, () => {
      const t = resolveTarget(env({ API_BASE_URL: url }));
      assert.equal(t.loopback, loopback);
      assert.equal(t.maxRps, loopback ? 0 : 10);
    });
  }

  test('API_MAX_RPS overrides the default on loopback and remote targets', () => {
    assert.equal(resolveTarget(env({ API_BASE_URL: 'http://127.0.0.1:1', API_MAX_RPS: '4' })).maxRps, 4);
    assert.equal(resolveTarget(env({ API_MAX_RPS: '0' })).maxRps, 0);
  });

  test('http and a path prefix are kept, a trailing slash dropped', () => {
    assert.equal(resolveTarget(env({ API_BASE_URL: 'http://h.example:81/v1/' })).baseURL, 'http://h.example:81/v1');
    assert.equal(resolveTarget(env({ API_BASE_URL: 'https://h.example/' })).baseURL, 'https://h.example');
  });

  test('live profile is accepted with CONFORMANCE_ALLOW_LIVE=1', () => {
    const t = resolveTarget(env({ CONFORMANCE_PROFILE: 'live', CONFORMANCE_ALLOW_LIVE: '1' }));
    assert.equal(t.profile, 'live');
    assert.equal(t.bundledMock, false);
  });
});

describe('resolveTarget: the bundled mock', () => {
  test('no API_BASE_URL: the values of mock/identity.json', () => {
    const t = resolveTarget({});
    const expected: Target = {
      baseURL: `http://${mockTarget.host}:${mockTarget.conformancePort}`,
      keys: {
        test: mockTarget.keys.test,
        live: mockTarget.keys.live,
        restricted: mockTarget.keys.restricted,
        revoked: mockTarget.keys.revoked,
        old: mockTarget.keys.revoked,
      },
      merchants: {
        sandbox: mockTarget.merchants.sandbox,
        live: mockTarget.merchants.live,
        otherSandbox: mockTarget.merchants.otherSandbox,
      },
      defaultLimit: mockTarget.defaultLimit,
      profile: 'mock',
      bundledMock: true,
      loopback: true,
      maxRps: 0,
      maxRequests: 5000,
      maxRecords: 2000,
      timeoutMs: 10_000,
      strict: false,
      fcSeed: undefined,
      fcNumRuns: 25,
      depth: DEPTH_PROFILES.standard,
      maxTimeMs: 0,
      grep: undefined,
    };
    assert.deepEqual(t, expected);
    assert.equal(t.baseURL, 'http://127.0.0.1:3417');
  });

  test('the mock ignores user key variables but honours CONFORMANCE_MOCK_PORT and API_DEFAULT_LIMIT', () => {
    const t = resolveTarget({
      API_TEST_KEY: 'sk_test_userKeyIgnored1',
      CONFORMANCE_MOCK_PORT: '4999',
      API_DEFAULT_LIMIT: '20',
    });
    assert.equal(t.baseURL, 'http://127.0.0.1:4999');
    assert.equal(t.keys.test, mockTarget.keys.test);
    assert.equal(t.defaultLimit, 20);
  });

  test('CONFORMANCE_PROFILE=mock uses the mock even when API_BASE_URL is set', () => {
    const t = resolveTarget(env({ CONFORMANCE_PROFILE: 'mock' }));
    assert.equal(t.bundledMock, true);
    assert.equal(t.baseURL, 'http://127.0.0.1:3417');
  });

  test('a named non-mock profile without API_BASE_URL is an error, not a silent run against the mock', () => {
    const { problems } = problemsOf({
      CONFORMANCE_PROFILE: 'sandbox',
      API_TEST_KEY: TEST_KEY,
      SANDBOX_MERCHANT_ID: 'm1',
    });
    assert.ok(problems.some((p) => p.includes('API_BASE_URL')));
  });
});

describe('resolveTarget: problems name the variable, never the value', () => {
  const slots: Array<{ name: string; bad: string[]; good: string[] }> = [
    {
      name: 'API_TEST_KEY',
      bad: ['sk_live_WrongModeKey123', 'pk_test_abcdef123', 'sk_test_', 'sk_test_has space', 'SK_TEST_upper123'],
      good: ['sk_test_okKEY_-09'],
    },
    {
      name: 'API_LIVE_KEY',
      bad: ['sk_test_WrongModeKey456', 'sk_live_', 'live_abcdef123', 'sk_live_bad$char1'],
      good: ['sk_live_okKEY_-09'],
    },
    { name: 'API_RESTRICTED_KEY', bad: ['rk_test_abcdef123', 'sk_prod_abcdef123'], good: ['sk_test_r1', 'sk_live_r2'] },
    { name: 'API_REVOKED_KEY', bad: ['sk_test_bad/slash1', 'sk_sandbox_abc123'], good: ['sk_test_v1', 'sk_live_v2'] },
    { name: 'API_OLD_KEY', bad: ['sk_live_bad.dot123', 'key_live_abc123'], good: ['sk_test_o1', 'sk_live_o2'] },
  ];
  for (const slot of slots) {
    for (const bad of slot.bad) {
      // Titles go into reports: key-shaped values are shown redacted there too.
      test(`CFG-KEYS: ${slot.name} with a malformed value is rejected by name only (${redact(JSON.stringify(bad))})`, () => {
        const { problems, message } = problemsOf(env({ [slot.name]: bad }));
        assert.equal(problems.length, 1);
        assert.match(
          problems[0] as string,
          new RegExp(`^CFG-KEYS violated \\(§2, §5\\.1\\): ${slot.name} does not have the `),
        );
        // A bare prefix (`sk_test_`) is part of the format text itself; every other value must stay out.
        const secretPart = bad.slice(8);
        if (secretPart.length > 0) {
          assert.ok(!message.includes(bad), 'the bad value must not appear in the message');
          assert.ok(!message.includes(secretPart), 'not even its secret part');
        }
      });
    }
    for (const good of slot.good) {
      test(`CFG-KEYS: ${slot.name} accepts ${redact(JSON.stringify(good))}`, () => {
        const t = resolveTarget(env({ [slot.name]: good }));
        const slotKey = Object.entries(KEY_VARS).find(([, v]) => v === slot.name)?.[0] as keyof Target['keys'];
        assert.equal(t.keys[slotKey], good);
      });
    }
  }

  test('CFG-KEYS names the expected format per slot', () => {
    const { problems } = problemsOf(
      env({ API_TEST_KEY: 'sk_live_x1', API_LIVE_KEY: 'sk_test_x2', API_RESTRICTED_KEY: 'bad_key_x3' }),
    );
    assert.deepEqual(problems, [
      'CFG-KEYS violated (§2, §5.1): API_TEST_KEY does not have the sk_test_<hash> format of its slot',
      'CFG-KEYS violated (§2, §5.1): API_LIVE_KEY does not have the sk_live_<hash> format of its slot',
      'CFG-KEYS violated (§2, §5.1): API_RESTRICTED_KEY does not have the sk_test_<hash> or sk_live_<hash> format of its slot',
    ]);
  });

  test('missing API_TEST_KEY and SANDBOX_MERCHANT_ID are both listed', () => {
    const { problems } = problemsOf(env({ API_TEST_KEY: undefined, SANDBOX_MERCHANT_ID: '  ' }));
    assert.deepEqual(problems, [
      'API_TEST_KEY is not set (the sandbox key every check uses)',
      'SANDBOX_MERCHANT_ID is not set (the sandbox merchant whose payments are listed)',
    ]);
  });

  for (const raw of ['not a url', 'sk_test_SecretLookingUrl99', '://nohost', 'http//missing-colon.example']) {
    test(`unparsable API_BASE_URL is named without its value (${redact(raw)})`, () => {
      const { problems, message } = problemsOf(env({ API_BASE_URL: raw }));
      assert.deepEqual(problems, ['API_BASE_URL is not a parsable URL (expected e.g. https://sandbox.example.com)']);
      assert.ok(!message.includes(raw));
    });
  }

  test('a non-http(s) scheme is rejected', () => {
    const { problems, message } = problemsOf(env({ API_BASE_URL: 'ftp://files.example.com/x' }));
    assert.deepEqual(problems, ['API_BASE_URL must use http or https']);
    assert.ok(!message.includes('files.example.com'));
  });

  test('credentials in API_BASE_URL are rejected without echoing them', () => {
    const password = 'sk_test_PasswordInUrl77';
    const { problems, message } = problemsOf(env({ API_BASE_URL: `https://alice:${password}@api.example.com/v1` }));
    assert.deepEqual(problems, ['API_BASE_URL must not carry credentials']);
    assert.ok(!message.includes(password));
    assert.ok(!message.includes('alice'));
  });

  test('a username alone is also a credential', () => {
    const { problems } = problemsOf(env({ API_BASE_URL: 'https://sk_test_userOnly12@api.example.com' }));
    assert.deepEqual(problems, ['API_BASE_URL must not carry credentials']);
  });

  test('a query or fragment in API_BASE_URL is rejected', () => {
    const q = problemsOf(env({ API_BASE_URL: 'https://api.example.com/?key=sk_test_inQuery999' }));
    assert.deepEqual(q.problems, ['API_BASE_URL must not carry a query or fragment']);
    assert.ok(!q.message.includes('sk_test_inQuery999'));
    const h = problemsOf(env({ API_BASE_URL: 'https://api.example.com/#frag' }));
    assert.deepEqual(h.problems, ['API_BASE_URL must not carry a query or fragment']);
  });

  test('live profile without CONFORMANCE_ALLOW_LIVE=1 is refused', () => {
    for (const allow of [undefined, '0', 'true', 'yes']) {
      const { problems } = problemsOf(env({ CONFORMANCE_PROFILE: 'live', CONFORMANCE_ALLOW_LIVE: allow }));
      assert.deepEqual(problems, [
        'CONFORMANCE_PROFILE=live runs against live: set CONFORMANCE_ALLOW_LIVE=1 to confirm',
      ]);
    }
  });

  test('merchant ids must be a single path segment; the id is not echoed', () => {
    const { problems, message } = problemsOf(
      env({ SANDBOX_MERCHANT_ID: 'msb/../secretish', LIVE_MERCHANT_ID: 'mlv?x=1', OTHER_SANDBOX_MERCHANT_ID: 'a b' }),
    );
    assert.deepEqual(problems, [
      'SANDBOX_MERCHANT_ID must be a single path segment (no / ? # or spaces)',
      'LIVE_MERCHANT_ID must be a single path segment (no / ? # or spaces)',
      'OTHER_SANDBOX_MERCHANT_ID must be a single path segment (no / ? # or spaces)',
    ]);
    assert.ok(!message.includes('secretish'));
  });

  test('numeric variables: non-integers and values below the minimum are named', () => {
    const { problems, message } = problemsOf(
      env({
        API_DEFAULT_LIMIT: '0',
        API_MAX_RPS: '-1',
        API_MAX_REQUESTS: '1.5',
        API_MAX_RECORDS: '99',
        API_TIMEOUT_MS: 'abc9731',
        FC_SEED: 'x',
        FC_NUM_RUNS: '0',
      }),
    );
    assert.deepEqual(problems, [
      'API_DEFAULT_LIMIT must be a whole number ≥ 1',
      'API_MAX_RPS must be a whole number ≥ 0',
      'API_MAX_REQUESTS must be a whole number ≥ 1',
      'API_MAX_RECORDS must be a whole number ≥ 100',
      'API_TIMEOUT_MS must be a whole number ≥ 100',
      'FC_SEED must be a whole number ≥ 0',
      'FC_NUM_RUNS must be a whole number ≥ 1',
    ]);
    assert.ok(!message.includes('abc9731'));
  });

  test('every problem of one config is reported at once, none carries a key', () => {
    const keys = { API_TEST_KEY: 'sk_live_AllAtOnce111', API_LIVE_KEY: 'sk_test_AllAtOnce222' };
    const { problems, message } = problemsOf({ API_BASE_URL: 'https://u:p@h.example', ...keys });
    assert.equal(problems.length, 4);
    for (const v of Object.values(keys)) assert.ok(!message.includes(v));
    assert.ok(!message.includes('AllAtOnce'));
  });
});

describe('loadEnvFiles', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cfg-unit-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(
    join(dir, '.env'),
    [
      'API_BASE_URL=https://from-dotenv.example',
      'API_TEST_KEY=sk_test_fromDotenv1',
      'ONLY_IN_DOTENV=d',
      'SHARED=dotenv',
    ].join('\n'),
  );
  writeFileSync(
    join(dir, '.env.sandbox'),
    ['API_BASE_URL=https://from-profile.example', 'ONLY_IN_PROFILE=p', 'SHARED=profile', 'REAL=profile'].join('\n'),
  );

  test('profile values win over .env, the real environment wins over both', () => {
    const e: NodeJS.ProcessEnv = { CONFORMANCE_PROFILE: 'sandbox', REAL: 'real' };
    loadEnvFiles(e, dir);
    assert.deepEqual(e, {
      CONFORMANCE_PROFILE: 'sandbox',
      REAL: 'real',
      API_BASE_URL: 'https://from-profile.example',
      API_TEST_KEY: 'sk_test_fromDotenv1',
      ONLY_IN_DOTENV: 'd',
      ONLY_IN_PROFILE: 'p',
      SHARED: 'profile',
    });
  });

  test('an empty real variable is still "set" and wins', () => {
    const e: NodeJS.ProcessEnv = { CONFORMANCE_PROFILE: 'sandbox', SHARED: '' };
    loadEnvFiles(e, dir);
    assert.equal(e.SHARED, '');
  });

  test('no profile (or the mock profile): only .env is read', () => {
    for (const profile of [undefined, 'mock']) {
      const e: NodeJS.ProcessEnv = profile ? { CONFORMANCE_PROFILE: profile } : {};
      loadEnvFiles(e, dir);
      assert.equal(e.API_BASE_URL, 'https://from-dotenv.example');
      assert.equal(e.SHARED, 'dotenv');
      assert.equal(e.ONLY_IN_PROFILE, undefined);
    }
  });

  test('a missing profile file is a ConfigError naming the file, and a hint that names what exists', () => {
    const problemOf = (e: NodeJS.ProcessEnv) => {
      try {
        loadEnvFiles(e, dir);
      } catch (error) {
        assert.ok(error instanceof ConfigError);
        assert.equal(error.problems.length, 1);
        return error.problems[0] as string;
      }
      assert.fail('loaded');
    };
    const head = (p: string) => `CONFORMANCE_PROFILE=${p} (--profile) but .env.${p} does not exist in ${dir}`;
    // No example of that name anywhere: never a file that does not exist, but the profiles that have one.
    const e: NodeJS.ProcessEnv = { CONFORMANCE_PROFILE: 'staging' };
    assert.equal(
      problemOf(e),
      `${head('staging')}: create it (\`npx payment-api-conformance init\` writes a .env that lists every variable), or use a profile the suite has an example for: sandbox, live`,
    );
    assert.deepEqual(e, { CONFORMANCE_PROFILE: 'staging' }, 'nothing loaded');
    // A profile of the package whose example is not here (the installed package keeps it in its own folder).
    assert.equal(
      problemOf({ CONFORMANCE_PROFILE: 'live', CONFORMANCE_COMMAND: 'npm run conformance --' }),
      `${head('live')}: \`npm run conformance -- init --profile live\` writes one here to fill in`,
    );
    // An example in the current folder (a clone): copy it.
    writeFileSync(join(dir, '.env.qa.example'), 'API_BASE_URL=\n');
    assert.equal(
      problemOf({ CONFORMANCE_PROFILE: 'qa' }),
      `${head('qa')}: copy .env.qa.example to .env.qa and fill it in`,
    );
  });

  test('CONFORMANCE_ENV_FILE (--env-file) is read instead of .env, relative to the directory; the profile file still wins', () => {
    writeFileSync(join(dir, 'ci.env'), 'API_BASE_URL=https://from-env-file.example\nSHARED=file\nONLY_IN_FILE=f\n');
    const e: NodeJS.ProcessEnv = { CONFORMANCE_ENV_FILE: 'ci.env' };
    loadEnvFiles(e, dir);
    assert.equal(e.API_BASE_URL, 'https://from-env-file.example');
    assert.equal(e.ONLY_IN_FILE, 'f');
    assert.equal(e.ONLY_IN_DOTENV, undefined, '.env is not read next to an env file');
    const p: NodeJS.ProcessEnv = { CONFORMANCE_ENV_FILE: join(dir, 'ci.env'), CONFORMANCE_PROFILE: 'sandbox' };
    loadEnvFiles(p, dir);
    assert.equal(p.SHARED, 'profile');
    assert.equal(p.ONLY_IN_FILE, 'f');
  });

  test('a missing CONFORMANCE_ENV_FILE is a ConfigError naming the file; nothing is loaded', () => {
    for (const named of ['nope.env', '.']) {
      const e: NodeJS.ProcessEnv = { CONFORMANCE_ENV_FILE: named };
      assert.throws(
        () => loadEnvFiles(e, dir),
        (error: unknown) =>
          error instanceof ConfigError &&
          error.problems[0] ===
            `--env-file (CONFORMANCE_ENV_FILE) names ${join(dir, named === '.' ? '' : named).replace(/\/$/, '')}, which ${named === '.' ? 'is not a file' : 'does not exist'}: nothing was read or sent`,
      );
      assert.deepEqual(e, { CONFORMANCE_ENV_FILE: named });
    }
  });

  test('a profile that is not a plain name is refused (no path traversal)', () => {
    for (const profile of ['../etc', 'a/b', 'x.y']) {
      assert.throws(() => loadEnvFiles({ CONFORMANCE_PROFILE: profile }, dir), ConfigError);
    }
  });

  test('no .env at all is fine', () => {
    const empty = mkdtempSync(join(tmpdir(), 'cfg-unit-empty-'));
    try {
      const e: NodeJS.ProcessEnv = { X: '1' };
      loadEnvFiles(e, empty);
      assert.deepEqual(e, { X: '1' });
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  test('loadEnvFiles then resolveTarget: the profile file configures the target', () => {
    const withKeys = mkdtempSync(join(tmpdir(), 'cfg-unit-live-'));
    try {
      writeFileSync(
        join(withKeys, '.env.live'),
        `API_BASE_URL=https://live.example/api/\nAPI_TEST_KEY=${TEST_KEY}\nAPI_LIVE_KEY=${LIVE_KEY}\nSANDBOX_MERCHANT_ID=msb_1\n`,
      );
      const e: NodeJS.ProcessEnv = { CONFORMANCE_PROFILE: 'live', CONFORMANCE_ALLOW_LIVE: '1' };
      loadEnvFiles(e, withKeys);
      const t = resolveTarget(e);
      assert.equal(t.profile, 'live');
      assert.equal(t.baseURL, 'https://live.example/api');
      assert.equal(t.keys.live, LIVE_KEY);
      assert.equal(t.maxRps, 10);
    } finally {
      rmSync(withKeys, { recursive: true, force: true });
    }
  });
});

describe('resolveTarget: which checks run (CONFORMANCE_GREP, the live profile)', () => {
  const base = { API_BASE_URL: 'https://api.example.com', API_TEST_KEY: TEST_KEY, SANDBOX_MERCHANT_ID: 'msb_1' };
  test('no grep: every check; a grep selects by title', () => {
    assert.equal(resolveTarget(base).grep, undefined);
    const grep = resolveTarget({ ...base, CONFORMANCE_GREP: 'AUTH-|PAG-TOTAL' }).grep;
    assert.ok(grep?.test('specs/5-authentication.spec.ts › §5 › AUTH-MISSING no key'));
    assert.ok(!grep?.test('specs/8-limits.spec.ts › §8 › LIM-CAP over 100'));
  });

  test("an id of a rule family selects the family's checks: FLT-STATUS the general FLT-FIELD's too, and back", () => {
    const grep = resolveTarget({ ...base, CONFORMANCE_GREP: 'flt-status' }).grep;
    assert.ok(grep?.test('FLT-STATUS filter[status]=S lists only S records'));
    assert.ok(grep?.test('FLT-FIELD refunds: filter[reason]=R lists only R records'));
    assert.ok(!grep?.test('FLT-BEFORE-PAGE any filtered window'));
    const general = resolveTarget({ ...base, CONFORMANCE_GREP: '^SRT-FIELD ' }).grep;
    assert.ok(general?.test('SRT-AMOUNT sort=amount ascends'));
    assert.ok(!general?.test('SRT-FILTER filter[status]=S with sort'));
  });

  test('the live profile runs the cutover checklist only, and a grep narrows it, never widens it', () => {
    const live = { ...base, CONFORMANCE_PROFILE: 'live', CONFORMANCE_ALLOW_LIVE: '1' };
    assert.ok(resolveTarget(live).grep?.test('LIM-CAP the live key @cutover'));
    assert.ok(!resolveTarget(live).grep?.test('LIM-CAP any notation'));
    const narrowed = resolveTarget({ ...live, CONFORMANCE_GREP: 'LIM-' }).grep;
    assert.ok(narrowed?.test('LIM-CAP the live key @cutover'));
    assert.ok(!narrowed?.test('LIM-CAP any notation'), 'a grep must not widen a live run');
    assert.ok(!narrowed?.test('AUTH-REVOKED old key @cutover'));
  });

  test('an invalid grep is named with the other problems', () => {
    assert.throws(
      () => resolveTarget({ CONFORMANCE_GREP: '(', API_BASE_URL: 'x' }),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.problems.includes('CONFORMANCE_GREP (--grep) is not a valid regular expression') &&
        error.problems.some((p) => p.startsWith('API_BASE_URL')),
    );
  });
});

describe('near misses: a variable the suite does not know, named with the one it probably meant', () => {
  test('nearMiss: typos, a missing or extra letter, swapped letters; nothing for names far from every variable', () => {
    assert.equal(nearMiss('API_TEST_KY'), 'API_TEST_KEY');
    assert.equal(nearMiss('API_TSET_KEY'), 'API_TEST_KEY');
    assert.equal(nearMiss('API_BASEURL'), 'API_BASE_URL');
    assert.equal(nearMiss('SANDBOX_MERCHANT'), 'SANDBOX_MERCHANT_ID');
    assert.equal(nearMiss('API_KEY'), undefined, 'a whole word missing is no typo');
    assert.equal(nearMiss('SANBOX_MERCHANT_ID'), 'SANDBOX_MERCHANT_ID');
    assert.equal(nearMiss('api_test_key'), 'API_TEST_KEY', 'the case of a letter');
    assert.equal(nearMiss('DATABASE_URL'), undefined);
    assert.equal(nearMiss('PATH'), undefined);
  });

  test("closest: the command's options and commands too (bin/payment-api-conformance.js)", () => {
    const options = ['--help', '-h', '--grep', '-g', '--reports', '--env-file', '--profile', '--baseline'];
    assert.equal(closest('--envfile', options), '--env-file');
    assert.equal(closest('--env_file', options), '--env-file');
    assert.equal(closest('--rpeorts', options), '--reports');
    assert.equal(closest('--Profile', options), '--profile', 'the case of a letter');
    assert.equal(closest('--verbose', options), undefined);
    assert.equal(closest('merg', ['merge', 'init', 'diff', 'report', 'rules']), 'merge');
    assert.equal(closest('run', ['merge', 'init', 'diff', 'report', 'rules']), undefined);
  });

  test("unknownVariables: one warning per unknown variable of the env file or of the suite's families, with its source", () => {
    const d = mkdtempSync(join(tmpdir(), 'near-miss-'));
    try {
      writeFileSync(
        join(d, '.env'),
        'API_TEST_KY=sk_test_abcdefghijkl0123\nDATABASE_URL=postgres://x\nAPI_TEST_KEY_2=x\n',
      );
      const e: NodeJS.ProcessEnv = {
        CONFORMANCE_PROFLE: 'sandbox',
        HOME: '/home/u',
        API_TEST_KEY: 'sk_test_abcdefghijkl0123',
      };
      loadEnvFiles(e, d);
      assert.deepEqual(unknownVariables(e), [
        'API_TEST_KEY_2 in .env: did you mean API_TEST_KEY? (API_TEST_KEY_2 is not a variable of the suite and is ignored)',
        'API_TEST_KY in .env: did you mean API_TEST_KEY? (API_TEST_KY is not a variable of the suite and is ignored)',
        'CONFORMANCE_PROFLE in the environment: did you mean CONFORMANCE_PROFILE? (CONFORMANCE_PROFLE is not a variable of the suite and is ignored)',
      ]);
      assert.deepEqual(unknownVariables({ API_GATEWAY_TOKEN: 'x', CONFORMANCE_RUN: '{}' }), [
        'API_GATEWAY_TOKEN in the environment is not a variable of the suite and is ignored (--help lists them)',
      ]);
    } finally {
      rmSync(d, { recursive: true, force: true });
    }
  });

  test('a required variable that is missing names its near miss in the problem (exit 2); otherwise only a warning', () => {
    const { problems } = problemsOf({
      API_BASE_URL: 'https://api.example.com',
      API_TEST_KE: 'sk_test_abcdefghijkl0123',
      SANDBOX_MERCHANT_ID: 'msb_1',
    });
    assert.deepEqual(problems, [
      'API_TEST_KEY is not set (the sandbox key every check uses); API_TEST_KE in the environment: did you mean API_TEST_KEY?',
    ]);
    // A misspelt API_BASE_URL still names a target: a config error, never a silent run against the bundled mock.
    const base = problemsOf({ API_BASE_URLL: 'https://x.example', API_TEST_KEY: TEST_KEY, SANDBOX_MERCHANT_ID: 'm' });
    assert.deepEqual(base.problems, [
      'API_BASE_URL is not set; API_BASE_URLL in the environment: did you mean API_BASE_URL?',
    ]);
  });
});
