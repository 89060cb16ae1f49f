/**
 * scripts/fidelity.ts against the bundled mock, in-process: identical mocks agree on every case; a mock with
 * other legal choices (over-limit=reject, invalid=422, amount=string) differs exactly where those choices show;
 * bad usage and bad env files exit 2 and name the variable, never its value.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type MockEnv, type RunningMock, startMock } from '../../mock/index.ts';
import { buildCases } from '../../scripts/fidelity/cases.ts';
import { compareTargets, type FidelityReport, main } from '../../scripts/fidelity.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const VARIANTS = ['over-limit=reject', 'invalid=422', 'amount=string'];

let dir: string;
let mocks: RunningMock[] = [];
let fileBase: string;
let fileTwin: string;
let fileVariant: string;
let keys: string[];
let baseEnv: MockEnv;
/** The CLI on a bad env file, spawned in `before` so that its start-up overlaps the in-process tests. */
let badRun: Promise<{ code: number | null; stdout: string; stderr: string }>;
const SECRET = 'sk_test_SECRETwrongSLOT9876';

function envFile(name: string, env: Partial<MockEnv> & Record<string, string>): string {
  const file = join(dir, name);
  writeFileSync(
    file,
    `${Object.entries(env)
      .map(([k, v]) => `${k}=${v}`)
      .join('\n')}\n`,
  );
  return file;
}

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (t: string) => void out.push(t), err: (t: string) => void err.push(t) } };
}

const rulesFlagged = (r: FidelityReport) => [...new Set(r.differences.map((d) => d.rule))].sort();

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fidelity-test-'));
  const [base, twin, variant] = await Promise.all([
    startMock({ port: 0 }),
    startMock({ port: 0 }),
    startMock({ port: 0, variants: VARIANTS }),
  ]);
  mocks = [base, twin, variant];
  baseEnv = base.env;
  fileBase = envFile('base.env', { ...base.env });
  fileTwin = envFile('twin.env', { ...twin.env });
  fileVariant = envFile('variant.env', { ...variant.env });
  const bad = envFile('bad.env', {
    API_BASE_URL: base.env.API_BASE_URL,
    SANDBOX_MERCHANT_ID: 'msb_x',
    API_LIVE_KEY: SECRET,
  });
  badRun = new Promise((resolve) => {
    const args = ['--import', 'tsx', 'scripts/fidelity.ts', fileBase, bad];
    execFile(process.execPath, args, { cwd: ROOT, encoding: 'utf8', timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });
  keys = [base.env.API_TEST_KEY, base.env.API_LIVE_KEY, base.env.API_RESTRICTED_KEY, base.env.API_REVOKED_KEY];
});

after(async () => {
  await Promise.all(mocks.map((m) => m.stop()));
  rmSync(dir, { recursive: true, force: true });
});

describe('fidelity: the case list', () => {
  test('is deterministic for a seed and changes with it', () => {
    const labels = (seed: number) => buildCases({ seed, runs: 12 }).map((c) => `${c.rule} ${c.label}`);
    assert.deepEqual(labels(1), labels(1));
    assert.notDeepEqual(labels(1), labels(2));
  });

  test('tags every case with a rule and covers the rules the brief names', () => {
    const rules = new Set(buildCases({ seed: 1, runs: 12 }).map((c) => c.rule));
    for (const id of [
      'PAG-DEFAULT',
      'LIM-CAP',
      'FLT-STATUS',
      'SRT-AMOUNT',
      'INP-ROBUST',
      'AUTH-MISSING',
      'AUTH-INVALID',
      'AUTH-REVOKED',
      'AUTH-FORBIDDEN',
      'MODE-LIVE-SANDBOX',
      'MODE-TEST-LIVE',
      'ADV-UNKNOWN-MERCHANT',
      'AUTH-STATUS',
    ]) {
      assert.ok(rules.has(id as never), `no case for ${id}`);
    }
  });
});

describe('fidelity: mock against mock', () => {
  test('two identical mocks: no difference, every case compared', async () => {
    const r = await compareTargets({ fileA: fileBase, fileB: fileTwin });
    assert.deepEqual(r.differences, []);
    assert.equal(r.summary.skipped, 0);
    assert.ok(r.summary.compared > 40, `only ${r.summary.compared} cases compared`);
    assert.equal(r.summary.identical, r.summary.compared);
    assert.equal(r.fidelity, `fidelity: ${r.summary.compared}/${r.summary.compared} cases identical in shape`);
    assert.ok(r.rules.every((s) => s.verdict === 'same' || s.verdict === 'not compared'));
    assert.equal(r.targets.A.total, r.targets.B.total);
  });

  test('the variant mock differs exactly under LIM-CAP, INP-ROBUST and ENV-SCHEMA', async () => {
    const r = await compareTargets({ fileA: fileBase, fileB: fileVariant });
    assert.deepEqual(rulesFlagged(r), ['ENV-SCHEMA', 'INP-ROBUST', 'LIM-CAP']);
    const of = (rule: string) => r.differences.filter((d) => d.rule === rule);

    // over-limit=reject (with invalid=422, the rejection is a 422): clamp against a 4xx
    assert.ok(of('LIM-CAP').length > 0);
    for (const d of of('LIM-CAP')) {
      assert.equal(d.aspect, 'status');
      assert.match(d.a, /^clamp \(200, limit echoed 100\)/);
      assert.match(d.b, /^422 /);
    }
    // invalid=422: 400 {success, message} against 422 {error}
    assert.ok(
      of('INP-ROBUST').some((d) => d.a === '400 {message: string, success: boolean}' && d.b === '422 {error: object}'),
      JSON.stringify(of('INP-ROBUST'), null, 1),
    );
    // amount=string: the record shape, and nothing else of the envelope
    assert.ok(of('ENV-SCHEMA').length > 0);
    for (const d of of('ENV-SCHEMA'))
      assert.deepEqual([d.aspect, d.a, d.b], ['records', 'amount: number', 'amount: string']);

    const verdicts = Object.fromEntries(r.rules.map((s) => [s.id, s.verdict]));
    for (const [id, verdict] of Object.entries(verdicts)) {
      assert.equal(verdict === 'differs', ['ENV-SCHEMA', 'INP-ROBUST', 'LIM-CAP'].includes(id), `${id}: ${verdict}`);
    }
    const cap = r.choices.find((c) => c.rule === 'LIM-CAP');
    assert.match(cap?.a ?? '', /^clamp/);
    assert.match(cap?.b ?? '', /^422/);
    assert.ok(r.summary.identical < r.summary.compared);
  });

  test('a case needing a variable that one file lacks is skipped, naming the variable', async () => {
    const { API_REVOKED_KEY: _revoked, ...rest } = baseEnv;
    const partial = envFile('no-revoked.env', rest);
    const r = await compareTargets({ fileA: fileBase, fileB: partial, runs: 2 });
    const revoked = r.rules.find((s) => s.id === 'AUTH-REVOKED');
    assert.equal(revoked?.verdict, 'skipped');
    assert.equal(revoked?.text, 'skipped (needs API_REVOKED_KEY)');
    assert.deepEqual(r.differences, []);
  });
});

describe('fidelity: the command', () => {
  test('prints the tables and the fidelity line, writes the reports, never a key; --fail-on-diff exits 1', async () => {
    const out = join(dir, 'reports');
    const run = capture();
    assert.equal(await main([fileBase, fileVariant, '--out', out, '--runs', '4'], run.io), 0, run.err.join('\n'));
    const text = run.out.join('\n');
    assert.match(text, /LIM-CAP \(§8\): \d+ cases? differ/);
    assert.match(text, /^ {2}LIM-CAP +differs \(\d+ cases?\)/m);
    assert.match(text, /^ {2}PAG-ECHO +same/m);
    assert.match(text, /^fidelity: \d+\/\d+ cases identical in shape$/m);
    const json = readFileSync(join(out, 'fidelity.json'), 'utf8');
    const md = readFileSync(join(out, 'fidelity.md'), 'utf8');
    assert.ok(JSON.parse(json).differences.length > 0);
    for (const key of keys) {
      for (const where of [text, json, md]) assert.ok(!where.includes(key), 'a key value was written');
    }

    const strict = capture();
    assert.equal(await main([fileBase, fileVariant, '--out', out, '--runs', '1', '--fail-on-diff'], strict.io), 1);
    const same = capture();
    assert.equal(
      await main([fileBase, fileTwin, '--out', out, '--runs', '1', '--fail-on-diff', '--seed', '7'], same.io),
      0,
    );
    assert.ok(existsSync(join(out, 'fidelity.md')));
  });

  test('bad usage: exit 2 with the usage', async () => {
    for (const argv of [[], [fileBase], [fileBase, fileTwin, '--seed', 'x'], [fileBase, fileTwin, '--nope']]) {
      const run = capture();
      assert.equal(await main(argv, run.io), 2, argv.join(' '));
      assert.match(run.err.join('\n'), /Usage: npm run fidelity -- <envA> <envB>/);
    }
  });

  test('a bad env file (spawned CLI): exit 2, the file and variables named, no value printed', async () => {
    const r = await badRun;
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /bad\.env \(B\): API_TEST_KEY is not set/);
    assert.match(r.stderr, /bad\.env \(B\): CFG-KEYS violated .*API_LIVE_KEY/);
    assert.ok(!`${r.stdout}${r.stderr}`.includes('SECRETwrongSLOT'), 'the value was printed');
    assert.equal(r.stdout, '');
  });
});
