/**
 * The CI user's workflow, end to end (npm test, stage ci-workflow), with the command against the bundled mock's code
 * started here with faults:
 *   - known deviations: --write-baseline from a faulty run; the same fault with --baseline exits 0 and lists the failure
 *     as known; another fault exits 1, its failure new and the old entries fixed; an expired entry exits 1, named; a bad
 *     baseline file exits 2, named; GitHub Actions gets its job summary and one ::error per failing MUST rule;
 *   - diff: a clean run and a faulty one exit 1 naming the rule; two clean runs exit 0;
 *   - the requests behind the verdicts: requests.ndjson and requests.har hold as many requests as the run says it sent,
 *     each failure names its lines, and no key is in any file the runs wrote;
 *   - JUnit: violations as <failure>, one test case per check; --list-rules touches nothing; `-- --list` overwrites no
 *     conformance.json;
 *   - the pages: conformance.html, fidelity.html (three targets) and the Allure report (single file) open from disk in
 *     Chromium with the outcome as their headline, load nothing else, and show no key.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main as fidelity } from '../../fidelity/main.ts';
import { startMock } from '../../mock/index.ts';
import { runSuite, type SuiteRun } from '../../scripts/run-suite.ts';
import { ensureChromium, launchChromium, openFromDisk } from '../support/browser.ts';
import { KEY_SHAPE } from '../support/scan.ts';
import { scanInParts } from '../support/scan-parts.ts';

export interface CiResult {
  scenario: string;
  problems: string[];
  detail: string;
}

/** The environment without anything that configures the suite, GitHub's variables included. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(API_|CONFORMANCE_|FC_|SANDBOX_|LIVE_|OTHER_|GITHUB_)|_PROXY$/i.test(k)) continue;
    env[k] = v;
  }
  return { ...env, FORCE_COLOR: '0', ...extra };
}

interface Summaryish {
  requests: number;
  outcome: { result: string; exitCode: number; decidedBy: string[] };
  checks: Array<{ rule: string; check: string; verdict: string; known?: unknown; requestLines?: [number, number] }>;
  deviations?: { known: Array<{ rule: string }>; fixed: Array<{ rule: string }>; expired: Array<{ rule: string }> };
}
const summaryOf = (dir: string): Summaryish => JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8'));
const lines = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean);

export async function runCiWorkflow(): Promise<CiResult[]> {
  const results: CiResult[] = [];
  const report = (scenario: string, problems: string[], detail: string) => results.push({ scenario, problems, detail });
  const root = mkdtempSync(join(tmpdir(), 'ci-workflow-'));
  const mocks = {
    clean: await startMock({ port: 0 }),
    pageSize: await startMock({ port: 0, faults: ['page-size-one-short'] }),
    uncapped: await startMock({ port: 0, faults: ['uncapped'] }),
  };
  const keys = Object.values(mocks).flatMap((m) => Object.values(m.env).filter((v) => v.startsWith('sk_')));
  const runs: Record<string, SuiteRun & { dir: string }> = {};
  const suite = async (name: string, mock: keyof typeof mocks, args: string[], extra: Record<string, string> = {}) => {
    const dir = join(root, name);
    const run = await runSuite(cleanEnv({ ...mocks[mock].env, ...extra }), { args: ['--reports', dir, ...args] });
    runs[name] = { ...run, dir };
    if (process.env.CI_WORKFLOW_TIMES) console.log(`${name}: ${run.seconds.toFixed(1)} s`);
    writeFileSync(join(root, `${name}.console.txt`), `${run.stdout}\n${run.stderr}`);
    return runs[name] as SuiteRun & { dir: string };
  };
  const baseline = join(root, 'b.json');
  // The baseline runs select two rules (the time of the stage); the clean runs are whole.
  const two = ['--grep', 'PAG-SIZE|LIM-CAP'];
  try {
    // Known deviations.
    const written = await suite('write', 'pageSize', [...two, '--write-baseline', baseline]);
    const entries = JSON.parse(readFileSync(baseline, 'utf8')).entries as Array<{ rule: string; until: string }>;
    report(
      'write-baseline',
      [
        ...(written.status === 1 ? [] : [`exit ${written.status}, expected 1`]),
        ...(entries.some((e) => e.rule === 'PAG-SIZE') ? [] : ['no PAG-SIZE entry written']),
      ],
      `exit ${written.status}; ${entries.length} entries written for the failures of page-size-one-short`,
    );
    const known = await suite('known', 'pageSize', [...two, '--baseline', baseline]);
    const k = summaryOf(known.dir);
    report(
      'baseline: the same fault is known',
      [
        ...(known.status === 0 ? [] : [`exit ${known.status}, expected 0: ${k.outcome.decidedBy.join('; ')}`]),
        ...(k.deviations?.known.some((d) => d.rule === 'PAG-SIZE') ? [] : ['PAG-SIZE is not listed as known']),
        ...(/known \(TODO/.test(known.stdout) ? [] : ['the console does not say "known (reason, until …)"']),
      ],
      `exit ${known.status}; ${k.deviations?.known.length} known failures, ${k.outcome.result}`,
    );
    const github = join(root, 'step-summary.md');
    writeFileSync(github, '');
    const other = await suite('other', 'uncapped', [...two, '--baseline', baseline], {
      GITHUB_ACTIONS: 'true',
      GITHUB_STEP_SUMMARY: github,
    });
    const o = summaryOf(other.dir);
    const annotations = other.stdout.split('\n').filter((l) => l.startsWith('::error '));
    report(
      'baseline: another fault is new, the old entries fixed; GitHub summary and annotations',
      [
        ...(other.status === 1 ? [] : [`exit ${other.status}, expected 1`]),
        ...(o.outcome.decidedBy.some((l) => l.startsWith('LIM-CAP (MUST) failed'))
          ? []
          : ['LIM-CAP is not a new failure']),
        ...(o.deviations?.fixed.some((e) => e.rule === 'PAG-SIZE') ? [] : ['the PAG-SIZE entry is not fixed']),
        ...(/fixed, remove it from the baseline/.test(other.stdout)
          ? []
          : ['the console does not name the fixed entries']),
        ...(annotations.some((l) => l.startsWith('::error title=LIM-CAP'))
          ? []
          : ['no ::error annotation for LIM-CAP']),
        ...(readFileSync(github, 'utf8').includes('# Conformance rule matrix')
          ? []
          : ['nothing in $GITHUB_STEP_SUMMARY']),
      ],
      `exit ${other.status}; new: ${o.outcome.decidedBy.filter((l) => l.includes('failed')).length} rule(s); fixed: ${o.deviations?.fixed.length} entries; ${annotations.length} ::error`,
    );
    const expiredFile = join(root, 'expired.json');
    writeFileSync(expiredFile, JSON.stringify({ entries: entries.map((e) => ({ ...e, until: '2000-01-01' })) }));
    const expired = await suite('expired', 'pageSize', ['--baseline', expiredFile, '--grep', 'PAG-SIZE']);
    const x = summaryOf(expired.dir);
    report(
      'baseline: an expired entry',
      [
        ...(expired.status === 1 ? [] : [`exit ${expired.status}, expected 1`]),
        ...(x.outcome.decidedBy.some((l) => /baseline entry PAG-SIZE .* expired on 2000-01-01/.test(l))
          ? []
          : ['not named']),
      ],
      `exit ${expired.status}; ${x.deviations?.expired.length} expired entries named`,
    );
    const badFile = join(root, 'bad.json');
    writeFileSync(badFile, JSON.stringify({ entries: [{ rule: 'PAG-SIZ', match: 'x', reason: 'r', until: 'soon' }] }));
    const bad = await suite('bad-baseline', 'clean', ['--baseline', badFile]);
    report(
      'baseline: a bad file',
      bad.status === 2 && /PAG-SIZ.*not a rule id/.test(bad.stderr) && /until must be a date/.test(bad.stderr)
        ? []
        : [`exit ${bad.status} (expected 2, the problems named): ${bad.stderr.slice(-300)}`],
      `exit ${bad.status}, the problems named`,
    );

    // Diff.
    const clean = await suite('clean', 'clean', []);
    const again = await suite('clean-again', 'clean', []);
    const diffDir = join(root, 'diff');
    mkdirSync(diffDir);
    const diffBad = await runSuite(cleanEnv(), {
      args: ['diff', clean.dir, written.dir, '--markdown', join(diffDir, 'diff.md')],
    });
    const diffSame = await runSuite(cleanEnv(), { args: ['diff', clean.dir, join(again.dir, 'conformance.json')] });
    report(
      'diff',
      [
        ...(clean.status === 0 && again.status === 0 ? [] : [`clean runs exited ${clean.status} and ${again.status}`]),
        ...(diffBad.status === 1 && /MUST rule\(s\) that A did not: .*PAG-SIZE/.test(diffBad.stdout)
          ? []
          : [`clean vs faulty: exit ${diffBad.status} (expected 1, naming PAG-SIZE)`]),
        ...(diffSame.status === 0 ? [] : [`clean vs clean: exit ${diffSame.status}, expected 0`]),
        ...(readFileSync(join(diffDir, 'diff.md'), 'utf8').includes('| PAG-SIZE | MUST |') ? [] : ['no Markdown row']),
      ],
      `clean vs faulty exit ${diffBad.status}, clean vs clean exit ${diffSame.status}`,
    );

    // The requests behind the verdicts, every run.
    const counts: string[] = [];
    const problems: string[] = [];
    for (const name of ['write', 'known', 'other', 'clean']) {
      const dir = runs[name]?.dir as string;
      const s = summaryOf(dir);
      const n = lines(join(dir, 'requests.ndjson')).length;
      const har = JSON.parse(readFileSync(join(dir, 'requests.har'), 'utf8')).log.entries.length;
      counts.push(`${name} ${n}/${s.requests}`);
      if (n !== s.requests || har !== s.requests)
        problems.push(`${name}: ${n} lines, ${har} HAR entries, ${s.requests} sent`);
      const findings = s.checks.filter((c) => c.verdict === 'fail');
      if (findings.some((c) => !c.requestLines)) problems.push(`${name}: a failure names no request lines`);
      for (const c of findings.slice(0, 3)) {
        const [from, to] = c.requestLines ?? [1, 0];
        const theirs = lines(join(dir, 'requests.ndjson')).slice(from - 1, to);
        if (!theirs.every((l) => JSON.parse(l).check === c.check))
          problems.push(`${name}: lines ${from}–${to} are not ${c.check}'s`);
      }
    }
    report('requests.ndjson and requests.har', problems, `lines/sent: ${counts.join(', ')}`);

    // JUnit, --list-rules, -- --list.
    const junit = readFileSync(join(written.dir, 'junit.xml'), 'utf8');
    const checks = summaryOf(written.dir).checks.length;
    const cases = junit.match(/<testcase /g)?.length ?? 0;
    const untouched = join(root, 'untouched');
    const rules = await runSuite(cleanEnv({ CONFORMANCE_REPORTS_DIR: untouched }), { args: ['--list-rules'] });
    const before = statSync(join(clean.dir, 'conformance.json')).mtimeMs;
    const listed = await runSuite(cleanEnv({ ...mocks.clean.env }), { args: ['--reports', clean.dir, '--', '--list'] });
    report(
      'junit.xml, --list-rules, -- --list',
      [
        ...(/<failure [^>]*type="PAG-SIZE"/.test(junit) && !/<error/.test(junit)
          ? []
          : ['junit.xml: no <failure> of PAG-SIZE, or an <error>']),
        ...(cases === checks ? [] : [`junit.xml: ${cases} test cases for ${checks} checks`]),
        ...(rules.status === 0 && /PAG-SIZE\s+§4\.2 r1\s+MUST/.test(rules.stdout)
          ? []
          : ['--list-rules did not print the catalogue']),
        ...(existsQuiet(untouched) ? ['--list-rules created the reports folder'] : []),
        ...(listed.status === 0 && statSync(join(clean.dir, 'conformance.json')).mtimeMs === before
          ? []
          : [`-- --list: exit ${listed.status}, or conformance.json was rewritten`]),
      ],
      `${cases} test cases for ${checks} checks; --list-rules exit ${rules.status}; -- --list exit ${listed.status}`,
    );

    // The pages, in a browser.
    const fidelityOut = join(root, 'fidelity');
    const envFiles = (['clean', 'pageSize', 'uncapped'] as const).map((m) => {
      const file = join(root, `${m}.env`);
      writeFileSync(
        file,
        Object.entries(mocks[m].env)
          .map(([k, v]) => `${k}=${v}`)
          .join('\n'),
      );
      return file;
    });
    const quiet = { out: () => {}, err: () => {} };
    const fidelityCode = await fidelity([...envFiles, '--reports', fidelityOut, '--runs', '4'], quiet);
    const allure = await runSuite(cleanEnv(), { args: ['report', '--reports', other.dir] });
    const chromium = ensureChromium();
    if (!chromium.ok) {
      report('pages in Chromium', [], `skipped: ${chromium.reason}`);
    } else {
      const browser = await launchChromium();
      const seen: string[] = [];
      const pageProblems: string[] = [];
      try {
        const pages = [
          { file: join(clean.dir, 'conformance.html'), headline: /^Payment API conformance: conformant \(exit 0\)$/ },
          {
            file: join(other.dir, 'conformance.html'),
            headline: /^Payment API conformance: nonconformant for the 2 selected rule\(s\) \(exit 1\)$/,
          },
          {
            file: join(fidelityOut, 'fidelity.html'),
            headline: /^Fidelity of B, C to A: \d+\/\d+ cases answered alike$/,
          },
        ];
        for (const p of pages) {
          const page = await openFromDisk(browser, p.file);
          seen.push(page.headline);
          if (!p.headline.test(page.headline)) pageProblems.push(`${p.file}: headline "${page.headline}"`);
          if (page.requests.length) pageProblems.push(`${p.file} loaded ${page.requests.join(', ')}`);
          if (keys.some((key) => page.html.includes(key)) || KEY_SHAPE.test(page.html))
            pageProblems.push(`${p.file} shows a key`);
        }
        if (/known \(TODO/.test(readFileSync(join(known.dir, 'conformance.html'), 'utf8')) === false) {
          pageProblems.push('conformance.html of the known run does not say known');
        }
        // Playwright's own HTML report: titled by the outcome; a known deviation is an expected failure there.
        const pw = await openFromDisk(browser, join(known.dir, 'html', 'index.html'), 500);
        seen.push(`Playwright HTML: ${pw.title.slice(0, 60)}`);
        if (
          !/^Payment API conformance: conformant for the 2 selected rule\(s\) \(exit 0\).*1 known deviation/.test(
            pw.title,
          )
        ) {
          pageProblems.push(`Playwright's HTML report title "${pw.title}"`);
        }
        if (!/Failed\s*0/.test(pw.text))
          pageProblems.push("Playwright's HTML report counts the known deviation as failed");
        const allurePage = join(other.dir, 'allure-report', 'index.html');
        if (allure.status !== 0) pageProblems.push(`report exited ${allure.status}: ${allure.stderr.slice(-200)}`);
        else {
          const a = await openFromDisk(browser, allurePage, 1500);
          seen.push(`Allure: ${a.title.slice(0, 60)}`);
          if (
            !/^Payment API conformance: nonconformant for the 2 selected rule\(s\) \(exit 1\): 1 rule failed \(LIM-CAP\)/.test(
              a.title,
            )
          )
            pageProblems.push(`Allure title "${a.title}"`);
          if (/Failed to fetch/i.test(a.text) || !a.text.includes('nonconformant'))
            pageProblems.push('the Allure report did not load from disk');
          if (a.requests.length || /googletagmanager/.test(a.html))
            pageProblems.push(`the Allure report loads ${a.requests.join(', ') || 'an analytics tag'}`);
        }
      } finally {
        await browser.close();
      }
      if (fidelityCode !== 0) pageProblems.push(`fidelity exited ${fidelityCode}`);
      report('pages in Chromium, from disk', pageProblems, seen.join(' | '));
    }

    // No key in anything the runs wrote or printed (the env files are the user's and hold keys by design).
    for (const f of envFiles) rmSync(f);
    // In a process of its own: a deep scan of every run's reports holds an event loop for seconds, and this process
    // serves the mocks of this stage and the hostile targets of the secrets canary beside it.
    const scan = await scanInParts([root], keys, [KEY_SHAPE], Number.POSITIVE_INFINITY, 1);
    report(
      'no key in any output',
      scan.hits.map((h) => `key leak: ${h.file} (${h.form})`),
      `${scan.files} files scanned, requests.ndjson and requests.har included`,
    );
  } catch (error) {
    report('ci-workflow', [error instanceof Error ? (error.stack ?? error.message) : String(error)], 'crashed');
  } finally {
    await Promise.all(Object.values(mocks).map((m) => m.stop()));
    rmSync(root, { recursive: true, force: true });
  }
  return results;
}

function existsQuiet(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const t0 = Date.now();
  const results = await runCiWorkflow();
  for (const r of results) {
    console.log(
      `${r.problems.length ? 'FAIL' : 'ok  '} ${r.scenario}: ${r.detail}${r.problems.length ? ` — ${r.problems.join('; ')}` : ''}`,
    );
  }
  console.log(`${((Date.now() - t0) / 1000).toFixed(1)} s`);
  process.exitCode = results.some((r) => r.problems.length) ? 1 : 0;
}
