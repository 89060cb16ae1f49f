/**
 * A reports folder holds one run, whole, that names its target (npm test, stage `reports`), the command run as a user
 * runs it:
 *   - a conformant run against the bundled mock: every report names the target — conformance.html in its first screen,
 *     conformance.md, every test suite and test case of junit.xml, Allure's environment, the title of Playwright's HTML
 *     report — and no report says "undefined" or "NaN";
 *   - then a set-up mistake with the same --reports: exit 2, and the folder holds that run's whole set (conformance.json,
 *     .md, .html and a junit.xml with one failing "set-up" test case carrying the sentence), no file of the first run;
 *   - a replay line of a failing run writes to a folder of its own beside the run's, and leaves the run's reports as
 *     they were;
 *   - a run sent SIGTERM mid-way (after its third check ended) exits 3 and writes conformance.json and junit.xml with
 *     the checks it judged, the others "not run (interrupted)".
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { type RunningMock, startMock } from '../../mock/index.ts';
import { againstMock, runSuite } from '../../scripts/run-suite.ts';
import { unzip } from '../support/scan.ts';

export interface ReportsResult {
  scenario: string;
  problems: string[];
  detail: string;
}

/** The environment without anything that configures the suite: a fresh CI runner. */
function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(API_|CONFORMANCE_|FC_|SANDBOX_|LIVE_|OTHER_|GITHUB_)|_PROXY$/i.test(k)) continue;
    env[k] = v;
  }
  return { ...env, FORCE_COLOR: '0', ...extra };
}

interface Matrix {
  status: string;
  target?: { baseURL: string; profile: string };
  outcome: { result: string; exitCode: number };
  checks: Array<{ check: string; verdict: string; cause?: string; replay?: string }>;
}
const matrixOf = (dir: string): Matrix => JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8'));

/** Every file under `dir` with its size and modification time: what a folder held, to compare with later. */
function listing(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const f of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const s = statSync(join(dir, f));
    if (s.isFile()) files.set(f, `${s.size} ${s.mtimeMs}`);
  }
  return files;
}

/** The title of Playwright's HTML report, from the data its page embeds (a zip holding report.json). */
function htmlReportTitle(file: string): string {
  const page = readFileSync(file, 'latin1');
  const zip = /data:application\/zip;base64,([A-Za-z0-9+/=]+)/.exec(page)?.[1] ?? '';
  const report = unzip(Buffer.from(zip, 'base64')).find(([name]) => name === 'report.json')?.[1];
  return report ? (JSON.parse(report.toString('utf8')).options?.title ?? '') : '';
}

/** The reports of `dir` that do not name the target (its base URL and profile), one line each. */
function lacksTarget(dir: string, baseURL: string, profile: string): string[] {
  const problems: string[] = [];
  const read = (f: string) => (existsSync(join(dir, f)) ? readFileSync(join(dir, f), 'utf8') : '');
  const header = /<header[^>]*>[\s\S]*?<\/header>/.exec(read('conformance.html'))?.[0] ?? '';
  if (!header.includes(`Target: ${baseURL}`) || !header.includes(`profile ${profile}`))
    problems.push('conformance.html: the target is not in its first screen');
  // The depth too, beside the target (--depth: standard unless told).
  if (!header.includes('; depth ')) problems.push('conformance.html: the depth is not in its first screen');
  if (!read('conformance.md').includes(`Target: ${baseURL}`)) problems.push('conformance.md does not name the target');
  if (!/; depth \w+/.test(read('conformance.md'))) problems.push('conformance.md does not name the depth');
  const junit = read('junit.xml');
  const target = `<property name="target" value="${baseURL}`;
  for (const element of ['testsuite', 'testcase']) {
    const all = junit.match(new RegExp(`<${element} [^>]*>(<properties>.*?</properties>)?`, 'g')) ?? [];
    const without = all.filter(
      (e) => !e.includes(target) || !e.includes(`profile ${profile}`) || !e.includes('<property name="depth"'),
    );
    if (all.length === 0 || without.length)
      problems.push(`junit.xml: ${without.length} of ${all.length} <${element}> lack the target or the depth`);
  }
  return problems;
}

/** The reports of `dir` that say "undefined" or "NaN" where a count or a time belongs. */
const unnumbered = (dir: string) =>
  ['conformance.json', 'conformance.md', 'conformance.html', 'junit.xml']
    .filter((f) => existsSync(join(dir, f)) && /\bundefined\b|\bNaN\b/.test(readFileSync(join(dir, f), 'utf8')))
    .map((f) => `${f} says undefined or NaN`);

export async function runReports(): Promise<ReportsResult[]> {
  const results: ReportsResult[] = [];
  const report = (scenario: string, problems: string[], detail: string) => results.push({ scenario, problems, detail });
  const root = mkdtempSync(join(tmpdir(), 'reports-unit-'));
  const mocks: RunningMock[] = [];
  try {
    // A conformant run, then a set-up mistake in the same folder.
    const dir = join(root, 'reports');
    const conformant = await runSuite(cleanEnv(), { args: ['--reports', dir] });
    const m = matrixOf(dir);
    const baseURL = m.target?.baseURL ?? '(none)';
    const allure = readFileSync(join(dir, 'allure-results', 'environment.properties'), 'utf8');
    const title = htmlReportTitle(join(dir, 'html', 'index.html'));
    report(
      'a conformant run: every report names the target',
      [
        ...(conformant.status === 0 ? [] : [`exit ${conformant.status}, expected 0: ${conformant.stderr.slice(-300)}`]),
        ...lacksTarget(dir, baseURL, 'mock'),
        ...(allure.includes(`target=${baseURL}`) && allure.includes('profile=mock')
          ? []
          : ["Allure's environment does not name the target"]),
        ...(title.includes(baseURL) && title.includes('profile mock')
          ? []
          : [`Playwright's HTML report title "${title}" does not name the target`]),
        ...unnumbered(dir),
      ],
      `exit ${conformant.status}; ${baseURL}, profile mock in conformance.html, .md, junit.xml, Allure, Playwright's title`,
    );
    const first = listing(dir);
    const mistake = await runSuite(
      cleanEnv({
        API_BASE_URL: 'http://127.0.0.1:9',
        API_TEST_KEY: 'sk_live_NotTheTestSlot0',
        SANDBOX_MERCHANT_ID: 'm',
      }),
      { args: ['--reports', dir] },
    );
    const left = listing(dir);
    const stale = [...left].filter(([f, stat]) => first.get(f) === stat).map(([f]) => f);
    const junit = existsSync(join(dir, 'junit.xml')) ? readFileSync(join(dir, 'junit.xml'), 'utf8') : '';
    report(
      'a set-up mistake in the same folder: its whole set, nothing of the first run',
      [
        ...(mistake.status === 2 ? [] : [`exit ${mistake.status}, expected 2`]),
        ...(stale.length ? [`files of the first run remain: ${stale.slice(0, 5).join(', ')}`] : []),
        ...['conformance.json', 'conformance.md', 'conformance.html', 'junit.xml']
          .filter((f) => !left.has(f))
          .map((f) => `${f} missing`),
        ...(/<testcase classname="set-up" name="set-up".*<failure message="CFG-KEYS violated[^"]*API_TEST_KEY/.test(
          junit,
        )
          ? []
          : ['junit.xml has no failing "set-up" test case naming API_TEST_KEY']),
        ...(matrixOf(dir).outcome.result === 'bad configuration' ? [] : ['conformance.json is not the refused run']),
        ...lacksTarget(dir, 'http://127.0.0.1:9', 'custom'),
        ...unnumbered(dir),
      ],
      `exit ${mistake.status}; ${first.size} files of the first run, now ${[...left.keys()].sort().join(', ')}`,
    );

    // A replay line writes beside the run it replays, never over it.
    const faulty = await startMock({ port: 0, faults: ['page-size-one-short'] });
    mocks.push(faulty);
    const runDir = join(root, 'faulty');
    const failing = await runSuite(cleanEnv(againstMock(faulty.env)), {
      args: ['--reports', runDir, '--grep', 'PAG-SIZE'],
    });
    const line = matrixOf(runDir).checks.find((c) => c.replay)?.replay;
    const before = listing(runDir);
    const replayed = line ? await replay(line, cleanEnv(againstMock(faulty.env))) : undefined;
    const beside = readdirSync(root).filter((d) => d.startsWith('faulty-replay-'));
    const after = listing(runDir);
    const changed = [...new Set([...before.keys(), ...after.keys()])].filter((f) => before.get(f) !== after.get(f));
    report(
      "a replay line writes to a folder of its own, the run's reports as they were",
      [
        ...(failing.status === 1 && line ? [] : [`the faulty run exited ${failing.status} with no replay line`]),
        ...(replayed === 1 ? [] : [`the replay exited ${replayed}, expected 1`]),
        ...(changed.length ? [`the replay changed the run's ${changed.slice(0, 5).join(', ')}`] : []),
        ...(beside.length === 1 && existsSync(join(root, beside[0] as string, 'conformance.json'))
          ? []
          : [`no replay folder with a conformance.json beside the run: ${beside.join(', ') || 'none'}`]),
      ],
      `${relative(root, runDir)} unchanged (${after.size} files); the replay wrote ${beside.join(', ')}`,
    );

    // SIGTERM mid-way: a run paced to take half a minute, stopped once three checks have ended.
    const clean = await startMock({ port: 0 });
    mocks.push(clean);
    const stopped = join(root, 'stopped');
    const ended = (out: string) => (out.match(/^\s+✓ /gm)?.length ?? 0) >= 3;
    const term = await runSuite(cleanEnv({ ...againstMock(clean.env), API_MAX_RPS: '40' }), {
      args: ['--reports', stopped],
      interrupt: { when: ended, signal: 'SIGTERM' },
      timeoutMs: 120_000,
    });
    const s = existsSync(join(stopped, 'conformance.json')) ? matrixOf(stopped) : undefined;
    const judged = s?.checks.filter((c) => c.verdict === 'pass') ?? [];
    const notRun = s?.checks.filter((c) => c.verdict === 'not run' && c.cause === 'interrupted') ?? [];
    const cases = existsSync(join(stopped, 'junit.xml'))
      ? readFileSync(join(stopped, 'junit.xml'), 'utf8').split('<testcase ').slice(1)
      : [];
    const passedCases = cases.filter((c) => !c.includes('<skipped') && !c.includes('<failure')).length;
    report(
      'SIGTERM mid-way: exit 3, the judged checks keep their verdicts in conformance.json and junit.xml',
      [
        ...(term.status === 3 ? [] : [`exit ${term.status}, expected 3: ${term.stderr.slice(-300)}`]),
        ...(s?.status === 'interrupted' ? [] : [`conformance.json: status ${s?.status ?? 'missing'}`]),
        ...(judged.length >= 3 && notRun.length > 0
          ? []
          : [`${judged.length} checks passed and ${notRun.length} not run (interrupted): expected ≥ 3 and > 0`]),
        ...(cases.length === s?.checks.length && passedCases === judged.length
          ? []
          : [`junit.xml: ${cases.length} test cases, ${passedCases} passed, for ${s?.checks.length} checks`]),
      ],
      `exit ${term.status} in ${term.seconds.toFixed(1)} s; ${judged.length} checks judged, ${notRun.length} not run (interrupted)`,
    );
  } catch (error) {
    report('reports', [error instanceof Error ? (error.stack ?? error.message) : String(error)], 'crashed');
  } finally {
    await Promise.all(mocks.map((m) => m.stop()));
    rmSync(root, { recursive: true, force: true });
  }
  return results;
}

/** Runs a printed replay line as a user pastes it into a shell, from this folder; its exit code. */
function replay(line: string, env: NodeJS.ProcessEnv): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', line], { env, stdio: 'ignore' });
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await runReports()) {
    console.log(
      `${r.problems.length ? 'FAIL' : 'ok  '} ${r.scenario}: ${r.detail}${r.problems.length ? ` — ${r.problems.join('; ')}` : ''}`,
    );
  }
}
