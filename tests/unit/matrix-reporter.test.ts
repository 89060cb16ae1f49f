import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { FullConfig, FullResult, TestCase, TestResult } from '@playwright/test/reporter';
import { registerSecret } from '../../core/model/secrets.ts';
import { FAULTS, type Fault } from '../../mock/faults/index.ts';
import MatrixReporter from '../proof/judge.ts';

type Annotation = { type: string; description?: string };

const KEY = 'sk_test_MatrixReporterCANARY77';
registerSecret(KEY);

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The first fault of the catalogue declared for `rule` (the test needs one per rule it names). */
function faultFor(rule: string): Fault {
  const f = FAULTS.find((x) => x.rule === rule);
  assert.ok(f, `mock/faults.ts has no fault for ${rule}`);
  return f;
}

function fakeTest(project: string, title: string): TestCase {
  return { title, annotations: [], parent: { project: () => ({ name: project }) } } as unknown as TestCase;
}

function fakeResult(status: TestResult['status'], errors: string[] = [], annotations: Annotation[] = []): TestResult {
  return { status, errors: errors.map((message) => ({ message })), annotations } as unknown as TestResult;
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
  const reporter = new MatrixReporter({ outputDir: out });
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

const violated = (rule: string, received = 'something else') =>
  `${rule} violated (§x): requirement\n  Expected: the rule\n  Received: ${received}`;

const SIZE = faultFor('PAG-SIZE');
const TOTAL = faultFor('PAG-TOTAL');
const CAP = faultFor('LIM-CAP');
const SCHEME = faultFor('ADV-SCHEME');

describe('matrix reporter: mutation (fault:NAME projects)', () => {
  test('a fault caught on its declared rule, a clean variant: passed, with both files', async () => {
    const r = await run([
      [fakeTest(`fault:${SIZE.name}`, 'PAG-SIZE window'), fakeResult('failed', [violated('PAG-SIZE')])],
      [fakeTest(`fault:${SIZE.name}`, 'PAG-PARTITION pages'), fakeResult('failed', [violated('PAG-PARTITION')])],
      [fakeTest(`fault:${SIZE.name}`, 'ENV-SCHEMA envelope'), fakeResult('passed')],
      [fakeTest(`fault:${TOTAL.name}`, 'PAG-TOTAL same total'), fakeResult('failed', [violated('PAG-TOTAL')])],
      [fakeTest('variant:default', 'PAG-SIZE window'), fakeResult('passed')],
      [fakeTest('variant:default', 'AUTH-REVOKED revoked'), fakeResult('skipped')],
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
      [fakeTest(`fault:${CAP.name}`, 'PAG-SIZE window'), fakeResult('failed', [violated('PAG-SIZE')])],
      [fakeTest(`fault:${CAP.name}`, 'LIM-CAP over the cap'), fakeResult('passed')],
    ]);
    assert.deepEqual(r.returned, { status: 'failed' });
    assert.deepEqual(r.mutation.faults, [
      { fault: CAP.name, rule: 'LIM-CAP', failedRules: ['PAG-SIZE'], failedChecks: 1, verdict: 'MISSED' },
    ]);
    assert.equal(r.mutation.score, '0/1');
    assert.match(r.console, /mutation score: 0\/1/);
  });

  for (const message of [
    'LIM-CAP failed: 101 records',
    'expected LIM-CAP to hold',
    'LIM-CAP: violated',
    'LIM-CAPS violated',
    'XLIM-CAP violated',
    'lim-cap violated',
    'Error: expect(received).toBe(expected) // LIM-CAP',
  ]) {
    test(`the declared rule must appear as "<ID> violated" in a failure: not caught by ${JSON.stringify(message)}`, async () => {
      const r = await run([[fakeTest(`fault:${CAP.name}`, 'LIM-CAP over the cap'), fakeResult('failed', [message])]]);
      assert.equal(r.mutation.faults[0]?.verdict, 'MISSED');
      assert.equal(r.mutation.faults[0]?.failedRules.includes('LIM-CAP'), false);
      assert.deepEqual(r.returned, { status: 'failed' });
    });
  }

  test('the rule may appear in any error of any failed test of the project', async () => {
    const r = await run([
      [fakeTest(`fault:${CAP.name}`, 'A check'), fakeResult('failed', ['some crash'])],
      [fakeTest(`fault:${CAP.name}`, 'B check'), fakeResult('timedOut', ['first error', `x\n${violated('LIM-CAP')}`])],
    ]);
    assert.equal(r.mutation.faults[0]?.verdict, 'caught');
    assert.equal(r.mutation.faults[0]?.failedChecks, 2);
  });

  test('a fault whose project passed entirely is MISSED with no failed rule', async () => {
    const r = await run([[fakeTest(`fault:${TOTAL.name}`, 'PAG-TOTAL same total'), fakeResult('passed')]]);
    assert.deepEqual(r.mutation.faults, [
      { fault: TOTAL.name, rule: 'PAG-TOTAL', failedRules: [], failedChecks: 0, verdict: 'MISSED' },
    ]);
    assert.deepEqual(r.returned, { status: 'failed' });
  });

  test('an advisory annotation alone does not catch a fault (its run is strict, so it must fail)', async () => {
    const r = await run([
      [
        fakeTest(`fault:${SCHEME.name}`, 'ADV-SCHEME Basic refused'),
        fakeResult('passed', [], [{ type: 'advisory', description: violated('ADV-SCHEME') }]),
      ],
    ]);
    assert.deepEqual(r.mutation.faults, [
      { fault: SCHEME.name, rule: 'ADV-SCHEME', failedRules: ['ADV-SCHEME'], failedChecks: 0, verdict: 'MISSED' },
    ]);
    const strict = await run([
      [fakeTest(`fault:${SCHEME.name}`, 'ADV-SCHEME Basic refused'), fakeResult('failed', [violated('ADV-SCHEME')])],
    ]);
    assert.equal(strict.mutation.faults[0]?.verdict, 'caught');
  });

  test('faults without a project in this run are not listed; unknown fault projects are ignored', async () => {
    const r = await run([
      [fakeTest(`fault:${SIZE.name}`, 'PAG-SIZE window'), fakeResult('failed', [violated('PAG-SIZE')])],
      [fakeTest('fault:no-such-fault', 'PAG-SIZE window'), fakeResult('passed')],
      [fakeTest('chromium', 'PAG-SIZE window'), fakeResult('failed', ['x'])],
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
      [[fakeTest(`fault:${SIZE.name}`, 'PAG-SIZE window'), fakeResult('failed', [violated('PAG-SIZE')])]],
      'interrupted',
    );
    assert.deepEqual(r.returned, { status: 'failed' });
  });

  test('a timed-out run (global timeout) fails even when everything that ran was caught', async () => {
    const r = await run(
      [[fakeTest(`fault:${SIZE.name}`, 'PAG-SIZE window'), fakeResult('failed', [violated('PAG-SIZE')])]],
      'timedout',
    );
    assert.deepEqual(r.returned, { status: 'failed' });
  });

  test('a configured fault project that never reported is NOT RUN and fails the run', async () => {
    const r = await run(
      [[fakeTest(`fault:${SIZE.name}`, 'PAG-SIZE window'), fakeResult('failed', [violated('PAG-SIZE')])]],
      'failed',
      [`fault:${FAULTS.find((f) => f.name !== SIZE.name)?.name}`],
    );
    assert.equal(r.mutation.total, 2);
    assert.equal(r.mutation.caught, 1);
    assert.ok(r.mutation.faults.some((f) => f.verdict === 'NOT RUN'));
    assert.deepEqual(r.returned, { status: 'failed' });
  });
});

describe('matrix reporter: specificity (variant:NAME projects)', () => {
  test('any failed test in a variant is a FALSE ALARM and fails the run', async () => {
    const r = await run(
      [
        [fakeTest('variant:strict', 'PAG-SIZE window'), fakeResult('passed')],
        [
          fakeTest('variant:strict', 'LIM-CAP over the cap'),
          fakeResult('failed', [`\u001b[31m${violated('LIM-CAP')}\u001b[39m`]),
        ],
        [fakeTest('variant:strict', 'INP-ROBUST odd input'), fakeResult('failed', ['TypeError: crash in a check'])],
        [fakeTest('variant:lenient', 'PAG-SIZE window'), fakeResult('passed')],
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
      // the colour codes around the first failure do not hide its rule id
      failedRules: ['LIM-CAP'],
      advisories: [],
      firstFailure: 'LIM-CAP over the cap: LIM-CAP violated (§x): requirement',
      otherErrors: ['INP-ROBUST odd input: TypeError: crash in a check'],
      verdict: 'FALSE ALARM',
    });
    assert.equal(r.specificity.variants.find((v) => v.variant === 'lenient')?.verdict, 'clean');
    assert.match(r.console, /specificity: 1\/2 variant runs clean/);
  });

  test('the failed rules of a variant are listed', async () => {
    const r = await run([
      [fakeTest('variant:x', 'PAG-ECHO echo'), fakeResult('failed', [violated('PAG-ECHO'), violated('PAG-SIZE')])],
    ]);
    assert.deepEqual(r.specificity.variants[0]?.failedRules, ['PAG-ECHO', 'PAG-SIZE']);
    assert.equal(r.specificity.variants[0]?.firstFailure, 'PAG-ECHO echo: PAG-ECHO violated (§x): requirement');
  });

  test('timedOut counts as failed; skipped and passed do not; advisories are recorded but clean', async () => {
    const r = await run([
      [fakeTest('variant:a', 'PAG-SIZE window'), fakeResult('skipped')],
      [
        fakeTest('variant:a', 'ADV-SCHEME scheme'),
        fakeResult('passed', [], [{ type: 'advisory', description: violated('ADV-SCHEME') }]),
      ],
      [fakeTest('variant:b', 'PAG-SIZE window'), fakeResult('timedOut', [])],
    ]);
    const a = r.specificity.variants.find((v) => v.variant === 'a');
    const b = r.specificity.variants.find((v) => v.variant === 'b');
    assert.deepEqual(a?.advisories, ['ADV-SCHEME']);
    assert.equal(a?.verdict, 'clean');
    assert.equal(b?.verdict, 'FALSE ALARM');
    assert.equal(b?.firstFailure, 'PAG-SIZE window: ', 'no error message: the first line is empty');
    assert.deepEqual(r.returned, { status: 'failed' });
  });

  test('no key reaches mutation.json, specificity.json or the console', async () => {
    const leak = `KEY-SECRET violated\n  Received: body has ${KEY}`;
    const r = await run([
      [fakeTest('variant:default', `KEY-SECRET leak ${KEY}`), fakeResult('failed', [`first line ${KEY}\n${leak}`])],
      [
        fakeTest(`fault:${SIZE.name}`, 'PAG-SIZE x'),
        fakeResult('failed', [`sk_live_derived123 ${violated('PAG-SIZE')}`]),
      ],
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
