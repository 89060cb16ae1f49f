/**
 * core/run/variables.json is the one list of the variables a user sets: `--help` prints it and the README's table
 * is generated from it. These tests keep it in step with the code that reads the environment and with the command.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { KEY_VARS } from '../../core/model/credentials.ts';
import { INTERNAL_VARIABLES, resolveTarget as resolveWith } from '../../core/run/config.ts';
import variables from '../../core/run/variables.json' with { type: 'json' };
import { bundledMockEnv } from '../../fixtures/mock-target.ts';

/** The loader as the suite calls it: with the bundled mock's environment. */
const resolveTarget = (e: NodeJS.ProcessEnv) => resolveWith(e, bundledMockEnv);

const ROOT = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, ROOT), 'utf8');
const sources = (dir: string): string[] =>
  readdirSync(new URL(dir, ROOT), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => `${dir}${f}`);

/** Set by the suite for its own processes, never by a user. */
// PLAYWRIGHT_HTML_TITLE: set by the rule matrix for Playwright's HTML report (its title: the outcome).
const INTERNAL = new Set<string>([...INTERNAL_VARIABLES, 'TEST_WORKER_INDEX', 'CI', 'PLAYWRIGHT_HTML_TITLE']);
/** Set by GitHub Actions on its runners: the run writes its job summary and annotations there. */
const BY_THE_CI = new Set(['GITHUB_ACTIONS', 'GITHUB_STEP_SUMMARY']);
/** Read by undici or Node itself, named by the transport's messages. */
const BY_THE_RUNTIME = new Set(['HTTPS_PROXY', 'HTTP_PROXY', 'NO_PROXY', 'NODE_EXTRA_CA_CERTS']);

const files = ['playwright.config.ts', ...['core/', 'fixtures/', 'checks/', 'specs/', 'reporters/'].flatMap(sources)];
const code = files.map(read).join('\n');
/** Every variable the suite's code reads: env.X, env?.X, source.X, int('X', …) and the key slots. */
const readByCode = new Set([
  ...[...code.matchAll(/\b(?:env|source)\??\.([A-Z][A-Z0-9_]+)\b/g)].map((m) => m[1] as string),
  ...[...code.matchAll(/\bint\('([A-Z][A-Z0-9_]+)'/g)].map((m) => m[1] as string),
  ...Object.values(KEY_VARS),
]);
const listed = new Set(variables.map((v) => v.name));

describe('core/run/variables.json', () => {
  test('names every variable the suite reads (but its own internal ones), once', () => {
    const missing = [...readByCode].filter((name) => !listed.has(name) && !INTERNAL.has(name) && !BY_THE_CI.has(name));
    assert.deepEqual(missing, []);
    assert.equal(listed.size, variables.length, 'a variable is listed twice');
  });

  test('lists nothing the suite does not read, or the runtime for it', () => {
    const stale = [...listed].filter((name) => !readByCode.has(name) && !BY_THE_RUNTIME.has(name));
    assert.deepEqual(stale, []);
    const transport = read('core/client/transport.ts');
    for (const name of BY_THE_RUNTIME) assert.ok(transport.includes(name), `${name} is not handled by the transport`);
  });

  test('each flag is an option of the command, and the command has no other', () => {
    const bin = read('bin/payment-api-conformance.js');
    const options = bin.slice(bin.indexOf('const OPTIONS'), bin.indexOf('};', bin.indexOf('const OPTIONS')));
    const declared = [...options.matchAll(/^\s+'?([a-z-]+)'?: \{/gm)].map((m) => `--${m[1]}`);
    const flags = variables.flatMap((v) => ('flag' in v && v.flag ? [v.flag] : []));
    // --help, --version and --list-rules print and exit: no variable sets them.
    const printing = new Set(['--help', '--version', '--list-rules']);
    assert.deepEqual(declared.filter((f) => !printing.has(f)).sort(), [...flags].sort());
  });

  test('the numeric defaults are the ones the config applies', () => {
    const env = {
      API_BASE_URL: 'https://sandbox.example',
      API_TEST_KEY: 'sk_test_abcdefghijkl0123',
      SANDBOX_MERCHANT_ID: 'msb_1',
    };
    const t = resolveTarget(env);
    const defaults = Object.fromEntries(variables.map((v) => [v.name, v.default]));
    assert.deepEqual([t.defaultLimit, t.maxRequests, t.maxRecords, t.timeoutMs, t.fcNumRuns, t.maxRps].map(String), [
      defaults.API_DEFAULT_LIMIT,
      defaults.API_MAX_REQUESTS?.match(/^(\d+)/)?.[1],
      defaults.API_MAX_RECORDS,
      defaults.API_TIMEOUT_MS,
      defaults.FC_NUM_RUNS,
      defaults.API_MAX_RPS?.match(/(\d+) otherwise/)?.[1],
    ]);
    // The deep run's own budget is stated beside it.
    const deep = resolveTarget({ ...env, CONFORMANCE_DEPTH: 'deep' });
    assert.equal(defaults.API_MAX_REQUESTS, `${t.maxRequests} (deep: ${deep.maxRequests})`);
  });
});
