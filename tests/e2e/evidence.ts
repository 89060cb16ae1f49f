/**
 * Evidence (npm test): what a verdict rests on, end to end against the bundled mock.
 * - A total that depends on the query (the fault total-after-offset: the same request answers the same total twice,
 *   another window of the set another): exit 1, PAG-TOTAL failing, and no rule "inconclusive" — the data never changed.
 * - A brand-new account (the variant data=new-account: seven sandbox payments, no live payment): exit 0, and the rules
 *   its data cannot show are "not exercised" with the reason (LIM-CAP: no listing over 100 records; MODE-ISOLATION:
 *   an empty live listing), listed in the outcome; with CONFORMANCE_STRICT=1 the same run fails (exit 1).
 * - Blame: a deviation that breaks one rule and, through it, the expectations of others (pages one record short,
 *   page-size-one-short; a total that depends on the query) lists its own rule as the likely cause, first, and every
 *   failure of another rule says what it may follow from: no failure quotes an expectation computed from data that
 *   failed another rule without saying so.
 */
import { readFileSync, rmSync } from 'node:fs';
import { type MockOptions, startMock } from '../../mock/index.ts';
import { againstMock, runSuite } from '../../scripts/run-suite.ts';

interface Matrix {
  outcome: { exitCode: number; decidedBy: string[]; likelyCauses?: string[] };
  rules: Array<{ id: string; verdict: string; evidence: string; mayFollowFrom?: string[] }>;
  checks: Array<{ rule: string; check: string; verdict: string; derivedFrom?: Array<{ rule: string; why: string }> }>;
}

/**
 * The blame of a run against a fault of `cause`: `cause` is the first rule the outcome names and a likely cause; each
 * other rule that failed may follow from a failing rule, and each of its failures says which (derivedFrom).
 */
function blameProblems(m: Matrix, cause: string): string[] {
  const failed = m.rules.filter((r) => r.verdict === 'fail');
  const undeclared = m.checks.filter((c) => c.verdict === 'fail' && c.rule !== cause && !c.derivedFrom?.length);
  const causes = m.outcome.likelyCauses ?? failed.map((r) => r.id);
  return [
    ...(m.outcome.decidedBy[0]?.startsWith(`${cause} `) ? [] : [`the outcome does not name ${cause} first`]),
    ...(causes.includes(cause) ? [] : [`${cause} is not a likely cause (${causes.join(', ')})`]),
    ...undeclared.map((c) => `"${c.check.slice(0, 60)}…" does not say what its expectation may follow from`),
  ];
}

interface Case {
  scenario: string;
  detail: string;
  problems: string[];
}

async function run(name: string, mockOptions: MockOptions, extra: NodeJS.ProcessEnv = {}) {
  const mock = await startMock(mockOptions);
  const dir = `reports/evidence/${name}`;
  rmSync(dir, { recursive: true, force: true });
  try {
    const child = await runSuite({
      ...process.env,
      ...againstMock(mock.env),
      CONFORMANCE_REPORTS_DIR: dir,
      FORCE_COLOR: '0',
      ...extra,
    });
    const matrix = JSON.parse(readFileSync(`${dir}/conformance.json`, 'utf8')) as Matrix;
    const verdict = (id: string) => matrix.rules.find((r) => r.id === id)?.verdict;
    return { status: child.status, matrix, verdict };
  } finally {
    await mock.stop();
  }
}

export async function runEvidence(): Promise<Case[]> {
  const cases: Case[] = [];

  const query = await run('total-after-offset', { faults: ['total-after-offset'] });
  const inconclusive = query.matrix.rules.filter((r) => r.verdict === 'inconclusive').map((r) => r.id);
  cases.push({
    scenario: 'a total that depends on the query',
    detail: `exit ${query.status}, PAG-TOTAL ${query.verdict('PAG-TOTAL')}, inconclusive: ${inconclusive.join(' ') || 'none'}`,
    problems: [
      ...(query.status === 1 ? [] : [`exit ${query.status}, expected 1`]),
      ...(query.verdict('PAG-TOTAL') === 'fail' ? [] : ['PAG-TOTAL did not fail']),
      ...inconclusive.map((id) => `${id} is inconclusive: the data never changed, the total depends on the query`),
      ...(query.matrix.outcome.decidedBy[0]?.startsWith('PAG-TOTAL ')
        ? []
        : ['the outcome does not name PAG-TOTAL first']),
    ],
  });

  const short = await run('page-size-one-short', { faults: ['page-size-one-short'] });
  const following = short.matrix.rules.filter((r) => r.mayFollowFrom).map((r) => r.id);
  cases.push({
    scenario: 'pages one record short: PAG-SIZE the likely cause',
    detail: `exit ${short.status}, likely cause ${short.matrix.outcome.likelyCauses?.join(' ') ?? 'not said'}, may follow from it: ${following.join(' ') || 'none'}`,
    problems: [
      ...(short.status === 1 ? [] : [`exit ${short.status}, expected 1`]),
      ...blameProblems(short.matrix, 'PAG-SIZE'),
      ...(short.matrix.outcome.likelyCauses?.join() === 'PAG-SIZE' ? [] : ['PAG-SIZE is not the only likely cause']),
    ],
  });

  const fresh = await run('new-account', { variants: ['data=new-account'] });
  const unshown = fresh.matrix.rules.filter((r) => r.verdict === 'not exercised').map((r) => r.id);
  const said = fresh.matrix.outcome.decidedBy.some((l) => l.startsWith('not exercised: ') && l.includes('LIM-CAP'));
  cases.push({
    scenario: 'a brand-new account',
    detail: `exit ${fresh.status}, not exercised: ${unshown.join(' ') || 'none'}`,
    problems: [
      ...(fresh.status === 0 ? [] : [`exit ${fresh.status}, expected 0`]),
      ...['LIM-CAP', 'MODE-ISOLATION']
        .filter((id) => !unshown.includes(id))
        .map((id) => `${id} is ${fresh.verdict(id)}`),
      ...(said ? [] : ['the outcome does not list what was not exercised']),
    ],
  });

  const strict = await run('new-account-strict', { variants: ['data=new-account'] }, { CONFORMANCE_STRICT: '1' });
  cases.push({
    scenario: 'a brand-new account, CONFORMANCE_STRICT=1',
    detail: `exit ${strict.status}`,
    problems: strict.status === 1 ? [] : [`exit ${strict.status}, expected 1 (not exercised fails in strict mode)`],
  });
  return cases;
}
