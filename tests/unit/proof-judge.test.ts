import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { FullConfig, FullResult, TestCase, TestResult } from '@playwright/test/reporter';
import { registerSecret } from '../../core/model/secrets.ts';
import { FAULTS, type FaultInfo } from '../../mock/index.ts';
import ProofJudge from '../proof/judge.ts';
import { checkRecord, failed, resultWith } from '../support/records.ts';

const KEY = 'sk_test_MatrixReporterCANARY77';
registerSecret(KEY);

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The first fault of the catalogue declared for `rule` (the test needs one per rule it names). */
function faultFor(rule: string): FaultInfo {
  const f = FAULTS.find((x) => x.rule === rule);
  assert.ok(f, `mock/faults/ has no fault for ${rule}`);
  return f;
}

/** A test of a project; fault projects of an ADVISORY rule run strict, as tests/proof/playwright.config.ts sets. */
function fakeTest(project: string, title: string, strict = false): TestCase {
  const use = { mock: { strict } };
  return {
    title,
    timeout: 120_000,
    annotations: [],
    parent: { project: () => ({ name: project, use }) },
  } as unknown as TestCase;
}

/** A check that ended with the verdict given; a fail names `rule` (its own unless told). */
function ended(title: string, verdict: 'pass' | 'fail' | 'advisory' | 'not run', received?: string): TestResult {
  const status = verdict === 'not run' ? 'skipped' : 'passed';
  const record =
    verdict === 'fail' ? failed(title, received) : checkRecord(title, verdict, received ? { received } : {});
  return resultWith(status, record);
}

interface MutationRow {
  fault: string;
  rule: string;
  failedRules: string[];
  failedChecks: number;
  verdict: string;
}
interface VariantRow {
  variant: string;
  checks: number;
  failedChecks: number;
  failedRules: string[];
  advisories: string[];
  firstFailure?: string;
  verdict: string;
}

async function run(
  events: Array<[TestCase, TestResult]>,
  status: FullResult['status'] = 'failed',
  extraProjects: string[] = [],
): Promise<{
  returned: { status: FullResult['status'] };
  mutation: { score: string; caught: number; total: number; faults: MutationRow[] };
  specificity: { clean: number; total: number; variants: VariantRow[] };
  raw: string;
  console: string;
}> {
  const dir = mkdtempSync(join(tmpdir(), 'matrix-reporter-'));
  dirs.push(dir);
  const out = join(dir, 'reports');
  const reporter = new ProofJudge({ outputDir: out });
  const names = [...new Set(events.map(([t]) => t.parent.project()?.name ?? '?')), ...extraProjects];
  reporter.onBegin({ projects: names.map((name) => ({ name })) } as unknown as FullConfig);
  for (const [t, r] of events) reporter.onTestEnd(t, r);
  const printed: string[] = [];
  const original = console.log;
  console.log = (...args: unknown[]) => void printed.push(args.map(String).join(' '));
  let returned: { status: FullResult['status'] };
  try {
    // onEnd may be sync or async (Playwright awaits it either way).
    returned = await reporter.onEnd({ status, startTime: new Date(), duration: 1 } as FullResult);
  } finally {
    console.log = original;
  }
  const m = readFileSync(join(out, 'mutation.json'), 'utf8');
  const s = readFileSync(join(out, 'specificity.json'), 'utf8');
  return { returned, mutation: JSON.parse(m), specificity: JSON.parse(s), raw: m + s, console: printed.join('\n') };
}

const SIZE = faultFor('PAG-SIZE');
const TOTAL = faultFor('PAG-TOTAL');
const CAP = faultFor('LIM-CAP');
const SCHEME = faultFor('ADV-SCHEME');

describe('proof judge: mutation (fault:NAME projects)', () => {
  test('a fault caught on its declared rule, a clean variant: passed, with both files', async () => {
    const r = await run([
      [fakeTest(`fault:${SIZE.name}`, 'PAG-SIZE window'), ended('PAG-SIZE window', 'fail')],
      [fakeTest(`fault:${SIZE.name}`, 'PAG-PARTITION pages'), ended('PAG-PARTITION pages', 'fail')],
      [fakeTest(`fault:${SIZE.name}`, 'ENV-SCHEMA envelope'), ended('ENV-SCHEMA envelope', 'pass')],
      [fakeTest(`fault:${TOTAL.name}`, 'PAG-TOTAL same total'), ended('PAG-TOTAL same total', 'fail')],
      [fakeTest('variant:default', 'PAG-SIZE window'), ended('PAG-SIZE window', 'pass')],
      [fakeTest('variant:default', 'AUTH-REVOKED revoked'), ended('AUTH-REVOKED revoked', 'not run')],
    ]);
    assert.deepEqual(r.returned, { status: 'passed' });
    assert.deepEqual(r.mutation, {
      score: '2/2',
      caught: 2,
      total: 2,
      faults: [
        {
          fault: SIZE.name,
          rule: 'PAG-SIZE',
          failedRules: ['PAG-PARTITION', 'PAG-SIZE'],
          failedChecks: 2,
          verdict: 'caught',
        },
        { fault: TOTAL.name, rule: 'PAG-TOTAL', failedRules: ['PAG-TOTAL'], failedChecks: 1, verdict: 'caught' },
      ].sort((a, b) => FAULTS.findIndex((f) => f.name === a.fault) - FAULTS.findIndex((f) => f.name === b.fault)),
    });
    assert.deepEqual(r.specificity, {
      clean: 1,
      total: 1,
      variants: [{ variant: 'default', checks: 2, failedChecks: 0, failedRules: [], advisories: [], verdict: 'clean' }],
    });
    assert.match(r.console, /mutation score: 2\/2/);
    assert.match(r.console, /specificity: 1\/1 variant runs clean/);
  });

  test('a fault that fails only on another rule is MISSED and fails the run', async () => {
    const r = await run([
      [fakeTest(`fault:${CAP.name}`, 'PAG-SIZE window'), ended('PAG-SIZE window', 'fail')],
      [fakeTest(`fault:${CAP.name}`, 'LIM-CAP over the cap'), ended('LIM-CAP over the cap', 'pass')],
    ]);
    assert.deepEqual(r.returned, { status: 'failed' });
    assert.deepEqual(r.mutation.faults, [
      { fault: CAP.name, rule: 'LIM-CAP', failedRules: ['PAG-SIZE'], failedChecks: 1, verdict: 'MISSED' },
    ]);
    assert.equal(r.mutation.score, '0/1');
    assert.match(r.console, /mutation score: 0\/1/);
  });

  test('only a record of the rule failing catches: not a crash, a timeout, an inconclusive check or an error text', async () => {
    const title = 'LIM-CAP over the cap';
    const message = 'LIM-CAP violated (§8): … Received: 101 records';
    const results = [
      resultWith('failed', checkRecord(title, 'inconclusive', { cause: 'crash', reason: message }), [message]),
      resultWith('timedOut', undefined, [message]),
      resultWith('skipped', checkRecord(title, 'inconclusive', { cause: 'data changed', reason: message })),
      resultWith('failed', undefined, [message]),
      resultWith('passed', checkRecord(title, 'pass'), [message]),
    ];
    for (const result of results) {
      const r = await run([[fakeTest(`fault:${CAP.name}`, title), result]]);
      assert.equal(r.mutation.faults[0]?.verdict, 'MISSED', JSON.stringify(result.status));
      assert.deepEqual(r.mutation.faults[0]?.failedRules, []);
      assert.deepEqual(r.returned, { status: 'failed' });
    }
  });

  test('any failing check of the project may catch it; the other failed checks are counted', async () => {
    const r = await run([
      [fakeTest(`fault:${CAP.name}`, 'LIM-CAP a'), resultWith('failed', undefined, ['some crash'])],
      [fakeTest(`fault:${CAP.name}`, 'LIM-CAP b'), ended('LIM-CAP b', 'fail')],
    ]);
    assert.equal(r.mutation.faults[0]?.verdict, 'caught');
    assert.equal(r.mutation.faults[0]?.failedChecks, 2);
  });

  test('a fault whose project passed entirely is MISSED with no failed rule', async () => {
    const r = await run([
      [fakeTest(`fault:${TOTAL.name}`, 'PAG-TOTAL same total'), ended('PAG-TOTAL same total', 'pass')],
    ]);
    assert.deepEqual(r.mutation.faults, [
      { fault: TOTAL.name, rule: 'PAG-TOTAL', failedRules: [], failedChecks: 0, verdict: 'MISSED' },
    ]);
    assert.deepEqual(r.returned, { status: 'failed' });
  });

  test("an advisory finding catches a fault only in a strict project (an ADVISORY rule's fault runs strict)", async () => {
    const title = 'ADV-SCHEME Basic refused';
    const lax = await run([[fakeTest(`fault:${SCHEME.name}`, title), ended(title, 'advisory', 'HTTP 200')]]);
    assert.deepEqual(lax.mutation.faults, [
      { fault: SCHEME.name, rule: 'ADV-SCHEME', failedRules: ['ADV-SCHEME'], failedChecks: 0, verdict: 'MISSED' },
    ]);
    const strict = await run([[fakeTest(`fault:${SCHEME.name}`, title, true), ended(title, 'advisory', 'HTTP 200')]]);
    assert.equal(strict.mutation.faults[0]?.verdict, 'caught');
  });

  test('faults without a project in this run are not listed; unknown fault projects are ignored', async () => {
    const r = await run([
      [fakeTest(`fault:${SIZE.name}`, 'PAG-SIZE window'), ended('PAG-SIZE window', 'fail')],
      [fakeTest('fault:no-such-fault', 'PAG-SIZE window'), ended('PAG-SIZE window', 'pass')],
      [fakeTest('chromium', 'PAG-SIZE window'), ended('PAG-SIZE window', 'fail')],
    ]);
    assert.deepEqual(
      r.mutation.faults.map((f) => f.fault),
      [SIZE.name],
    );
    assert.equal(r.mutation.total, 1);
    assert.equal(r.specificity.total, 0);
    assert.deepEqual(r.returned, { status: 'passed' });
  });

  test('an interrupted run fails even when everything was caught', async () => {
    const r = await run(
      [[fakeTest(`fault:${SIZE.name}`, 'PAG-SIZE window'), ended('PAG-SIZE window', 'fail')]],
      'interrupted',
    );
    assert.deepEqual(r.returned, { status: 'failed' });
  });

  test('a timed-out run (global timeout) fails even when everything that ran was caught', async () => {
    const r = await run(
      [[fakeTest(`fault:${SIZE.name}`, 'PAG-SIZE window'), ended('PAG-SIZE window', 'fail')]],
      'timedout',
    );
    assert.deepEqual(r.returned, { status: 'failed' });
  });

  test('a configured fault project that never reported is NOT RUN and fails the run', async () => {
    const r = await run(
      [[fakeTest(`fault:${SIZE.name}`, 'PAG-SIZE window'), ended('PAG-SIZE window', 'fail')]],
      'failed',
      [`fault:${FAULTS.find((f) => f.name !== SIZE.name)?.name}`],
    );
    assert.equal(r.mutation.total, 2);
    assert.equal(r.mutation.caught, 1);
    assert.ok(r.mutation.faults.some((f) => f.verdict === 'NOT RUN'));
    assert.deepEqual(r.returned, { status: 'failed' });
  });
});

describe('proof judge: specificity (variant:NAME projects)', () => {
  test('any failed check in a variant is a FALSE ALARM and fails the run; a crash is named apart', async () => {
    const crash = checkRecord('INP-ROBUST odd input', 'inconclusive', {
      cause: 'crash',
      reason: 'TypeError: crash in a check',
    });
    const r = await run(
      [
        [fakeTest('variant:strict', 'PAG-SIZE window'), ended('PAG-SIZE window', 'pass')],
        [fakeTest('variant:strict', 'LIM-CAP over the cap'), ended('LIM-CAP over the cap', 'fail')],
        [fakeTest('variant:strict', 'INP-ROBUST odd input'), resultWith('failed', crash)],
        [fakeTest('variant:lenient', 'PAG-SIZE window'), ended('PAG-SIZE window', 'pass')],
      ],
      'failed',
    );
    assert.deepEqual(r.returned, { status: 'failed' });
    assert.equal(r.specificity.clean, 1);
    assert.equal(r.specificity.total, 2);
    const strict = r.specificity.variants.find((v) => v.variant === 'strict');
    assert.deepEqual(strict, {
      variant: 'strict',
      checks: 3,
      failedChecks: 2,
      failedRules: ['LIM-CAP'],
      advisories: [],
      firstFailure:
        'LIM-CAP over the cap: LIM-CAP violated (§8): never more than 100 records in one answer, however the request was written; `limit` > 100: a 4xx, or `limit` echoed as 100',
      otherErrors: ['INP-ROBUST odd input: TypeError: crash in a check'],
      verdict: 'FALSE ALARM',
    });
    assert.equal(r.specificity.variants.find((v) => v.variant === 'lenient')?.verdict, 'clean');
    assert.match(r.console, /specificity: 1\/2 variant runs clean/);
  });

  test('the failed rules of a variant are listed', async () => {
    const r = await run([
      [fakeTest('variant:x', 'PAG-ECHO echo'), ended('PAG-ECHO echo', 'fail')],
      [fakeTest('variant:x', 'PAG-SIZE size'), ended('PAG-SIZE size', 'fail')],
    ]);
    assert.deepEqual(r.specificity.variants[0]?.failedRules, ['PAG-ECHO', 'PAG-SIZE']);
    assert.match(r.specificity.variants[0]?.firstFailure ?? '', /^PAG-ECHO echo: PAG-ECHO violated \(§4\.2 r3\)/);
  });

  test('a timeout counts as failed; not run and pass do not; advisories are recorded but clean', async () => {
    const r = await run([
      [fakeTest('variant:a', 'PAG-SIZE window'), ended('PAG-SIZE window', 'not run')],
      [fakeTest('variant:a', 'ADV-SCHEME scheme'), ended('ADV-SCHEME scheme', 'advisory', 'HTTP 200')],
      [fakeTest('variant:b', 'PAG-SIZE window'), resultWith('timedOut')],
    ]);
    const a = r.specificity.variants.find((v) => v.variant === 'a');
    const b = r.specificity.variants.find((v) => v.variant === 'b');
    assert.deepEqual(a?.advisories, ['ADV-SCHEME']);
    assert.equal(a?.verdict, 'clean');
    assert.equal(b?.verdict, 'FALSE ALARM');
    assert.equal(
      b?.firstFailure,
      "PAG-SIZE window: the check reached its time limit (120 s) before it ended: raise CONFORMANCE_CHECK_TIMEOUT_MS (the limit is derived from API_TIMEOUT_MS, the pace and the target's answer time)",
    );
    assert.deepEqual(r.returned, { status: 'failed' });
  });

  test('no key reaches mutation.json, specificity.json or the console', async () => {
    const r = await run([
      [
        fakeTest('variant:default', `KEY-SECRET leak ${KEY}`),
        resultWith('failed', failed(`KEY-SECRET leak ${KEY}`, `body has ${KEY}`)),
      ],
      [fakeTest(`fault:${SIZE.name}`, 'PAG-SIZE x'), ended('PAG-SIZE x', 'fail', 'sk_live_derived123')],
    ]);
    for (const [name, text] of [
      ['files', r.raw],
      ['console', r.console],
    ] as const) {
      assert.ok(!text.includes(KEY), `${name} has the key`);
      assert.ok(!/sk_(test|live)_/i.test(text), `${name} has something key-shaped`);
    }
    assert.ok(r.specificity.variants[0]?.firstFailure?.includes('[REDACTED]'));
  });
});
