/**
 * The package as a user gets it (run by npm test): `npm pack`, the tarball installed in an empty folder, and its
 * command `payment-api-conformance` run from there, with a clean environment:
 *   - `--help` names every variable (fixtures/variables.json) and the four exit codes; `--version` answers;
 *   - with nothing configured it checks the bundled mock from the compiled suite (no TypeScript in the package)
 *     and exits 0;
 *   - a key in the wrong slot: exit 2, the variable named, nothing sent;
 *   - a missing env file given every way (`--env-file F`, `--env-file=F`, CONFORMANCE_ENV_FILE, through npm exec and
 *     npx): exit 2 naming it (npx itself, a Node script of npm's, stops first on `--env-file F`: README); `--envfile`
 *     gets "did you mean --env-file?";
 *   - `.env` in the current folder naming a closed port: exit 3 (inconclusive), one "unreachable" message;
 *   - `--env-file`, `--reports` and `--grep` against the mock with a PAG-TOTAL fault: exit 1, PAG-TOTAL decides;
 *   - `--collections` with the package's example OpenAPI document lists the refunds checks; a bad file: exit 2;
 *   - `fidelity` compares two mocks and `fidelity --calibrate` calibrates the mock (package-fidelity.ts);
 * then everything those runs wrote and printed is scanned for keys.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import variables from '../../core/run/variables.json' with { type: 'json' };
import { startMock } from '../../mock/index.ts';
import { closedPort } from '../support/hostile-targets.ts';
import { KEY_SHAPE, scanPaths } from '../support/scan.ts';
import { fidelityScenario } from './package-fidelity.ts';
import { CANARY_KEYS } from './secrets-canary.ts';

export interface PackageResult {
  scenario: string;
  problems: string[];
  detail: string;
}

interface Run {
  status: number | null;
  output: string;
}

const COMMAND = 'payment-api-conformance';

/** The caller's environment without anything that configures the suite, a proxy or a CA: a fresh CI runner. */
function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(API_|CONFORMANCE_|FC_|SANDBOX_|LIVE_|OTHER_)|_PROXY$|^NODE_EXTRA_CA_CERTS$/i.test(name)) continue;
    env[name] = value;
  }
  return { ...env, FORCE_COLOR: '0', ...extra };
}

/**
 * Runs the installed command in `cwd` without blocking this process (the faulty mock lives here): as its bin link
 * (`node_modules/.bin`, what an npm script or a PATH finds), or through a launcher such as `npx`.
 */
function command(
  cwd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  log: string,
  via: string[] = [join(cwd, 'node_modules', '.bin', COMMAND)],
): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(via[0] as string, [...via.slice(1), ...args], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString('utf8');
    });
    child.stderr.on('data', (d: Buffer) => {
      output += d.toString('utf8');
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      writeFileSync(join(cwd, 'logs', `${log}.txt`), output);
      resolve({ status, output });
    });
  });
}

function outcomeOf(file: string): { result?: string; exitCode?: number; decidedBy?: string[] } {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')).outcome ?? {}) : {};
}

/** npm pack into `dir`, then install the tarball into `dir/app`; throws with npm's output when either fails. */
function packAndInstall(dir: string): { app: string; tarball: string } {
  const npm = (args: string[], cwd: string) => {
    const r = spawnSync('npm', args, { cwd, encoding: 'utf8', env: cleanEnv() });
    if (r.status !== 0)
      throw new Error(`npm ${args[0]} failed (exit ${r.status}): ${(r.stderr || r.stdout).slice(-600)}`);
    return r.stdout;
  };
  npm(['pack', '--silent', '--pack-destination', dir], process.cwd());
  const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack wrote no tarball into ${dir}`);
  const app = join(dir, 'app');
  mkdirSync(join(app, 'logs'), { recursive: true });
  writeFileSync(join(app, 'package.json'), '{ "name": "ci-job", "private": true }\n');
  npm(['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', join(dir, tarball)], app);
  return { app, tarball };
}

export async function runPackage(): Promise<PackageResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-package-'));
  const results: PackageResult[] = [];
  const report = (scenario: string, problems: string[], detail: string) => results.push({ scenario, problems, detail });
  try {
    const { app, tarball } = packAndInstall(dir);
    const installed = join(app, 'node_modules', COMMAND);
    const sources = ['playwright.config.ts', 'specs', 'tests', 'scripts'].filter((p) => existsSync(join(installed, p)));
    report(
      'install',
      sources.length ? [`the package ships sources or tests: ${sources.join(', ')}`] : [],
      `${tarball} installed into an empty folder; compiled suite only`,
    );

    const help = await command(app, ['--help'], cleanEnv(), 'help');
    const missing = variables.map((v) => v.name).filter((name) => !help.output.includes(name));
    const codes = [0, 1, 2, 3].filter((c) => !new RegExp(`^\\s+${c}\\s+\\w`, 'm').test(help.output));
    const version = await command(app, ['--version'], cleanEnv(), 'version');
    report(
      'help',
      [
        ...(help.status === 0 ? [] : [`--help exited ${help.status}`]),
        ...(missing.length ? [`--help does not name ${missing.join(', ')}`] : []),
        ...(codes.length ? [`--help does not explain exit code(s) ${codes.join(', ')}`] : []),
        ...(version.status === 0 && version.output.startsWith(`${COMMAND} `) ? [] : ['--version did not answer']),
      ],
      `${variables.length} variables and 4 exit codes in --help; ${version.output.trim()}`,
    );

    const mock = await command(app, [], cleanEnv(), 'bundled-mock');
    const conformant = outcomeOf(join(app, 'reports', 'conformance.json'));
    report(
      'bundled mock',
      mock.status === 0 && conformant.result === 'conformant'
        ? []
        : [`exit ${mock.status}, outcome ${conformant.result}: ${mock.output.slice(-400)}`],
      `exit ${mock.status}, ${conformant.result}`,
    );

    const badKey = await command(
      app,
      [],
      cleanEnv({
        API_BASE_URL: 'http://127.0.0.1:1',
        API_TEST_KEY: CANARY_KEYS.API_LIVE_KEY,
        SANDBOX_MERCHANT_ID: 'm',
      }),
      'bad-config',
    );
    report(
      'bad configuration',
      badKey.status === 2 && badKey.output.includes('API_TEST_KEY')
        ? []
        : [`exit ${badKey.status} (expected 2, naming API_TEST_KEY): ${badKey.output.slice(-300)}`],
      `exit ${badKey.status}, the variable named`,
    );

    // Every way to give a missing env file: exit 2 naming it, and the reports of the refused run. The bin link starts
    // Node through /bin/sh with the arguments off Node's command line, so that Node never reads --env-file itself
    // (nodejs/node#54232). npx is a Node script of npm's: its own Node reads the flag first, on every Node version,
    // and stops with exit 9 naming the file before the package is reached (README: use the other forms with npx).
    const ways = [
      { how: '--env-file missing.env', args: ['--env-file', 'missing.env'] },
      { how: '--env-file=missing.env', args: ['--env-file=missing.env'] },
      {
        how: 'npm exec … -- --env-file missing.env',
        args: ['--env-file', 'missing.env'],
        via: ['npm', 'exec', COMMAND, '--'],
      },
      {
        how: 'CONFORMANCE_ENV_FILE=missing.env npx',
        args: [],
        env: { CONFORMANCE_ENV_FILE: 'missing.env' },
        via: ['npx', COMMAND],
      },
    ];
    const refused: string[] = [];
    const wrongly: string[] = [];
    for (const [i, m] of ways.entries()) {
      rmSync(join(app, 'reports'), { recursive: true, force: true });
      const run = await command(app, m.args, cleanEnv(m.env), `missing-env-file-${i}`, m.via);
      const outcome = outcomeOf(join(app, 'reports', 'conformance.json'));
      const ok = run.status === 2 && /missing\.env, which does not exist/.test(run.output) && outcome.exitCode === 2;
      (ok ? refused : wrongly).push(ok ? m.how : `${m.how}: exit ${run.status}, ${run.output.trim().slice(-200)}`);
    }
    const npx = await command(app, ['--env-file', 'missing.env'], cleanEnv(), 'npx-missing-env-file', ['npx', COMMAND]);
    const npxSays =
      npx.status === 2 || (npx.status === 9 && npx.output.includes('node: missing.env: not found'))
        ? `npx … --env-file missing.env: exit ${npx.status}${npx.status === 9 ? " (npx's own Node, as the README says)" : ''}`
        : undefined;
    const typo = await command(app, ['--envfile', 'ci.env'], cleanEnv(), 'near-miss-option');
    // A key pasted where a command or an option goes is echoed redacted, from the installed (compiled) command.
    const pasted = await command(app, [CANARY_KEYS.API_LIVE_KEY], cleanEnv(), 'pasted-key');
    const pastedOk = pasted.status === 2 && pasted.output.includes('unexpected argument [REDACTED]');
    report(
      'a missing env file, every way: exit 2 naming it; an option near miss',
      [
        ...wrongly,
        ...(npxSays ? [] : [`npx … --env-file missing.env: exit ${npx.status}: ${npx.output.trim().slice(-200)}`]),
        ...(typo.status === 2 && typo.output.includes('unknown option --envfile: did you mean --env-file?')
          ? []
          : [`--envfile: exit ${typo.status}, no near-miss hint: ${typo.output.slice(-200)}`]),
        ...(pastedOk ? [] : [`a key as an argument: exit ${pasted.status}, not echoed redacted`]),
      ],
      `exit 2 naming the file: ${refused.join('; ')}; ${npxSays ?? 'npx: wrong'}; --envfile: did you mean --env-file?; a key as an argument: redacted`,
    );

    const port = await closedPort();
    const dotenv = [`API_BASE_URL=http://127.0.0.1:${port}`, `API_TEST_KEY=${CANARY_KEYS.API_TEST_KEY}`];
    writeFileSync(join(app, '.env'), `${[...dotenv, 'SANDBOX_MERCHANT_ID=msb_1', 'API_TIMEOUT_MS=300'].join('\n')}\n`);
    const down = await command(app, [], cleanEnv(), 'unreachable');
    rmSync(join(app, '.env'));
    const mentions = down.output.split('is unreachable').length - 1;
    report(
      'unreachable (.env in the current folder)',
      down.status === 3 && mentions === 1
        ? []
        : [`exit ${down.status} (expected 3), "is unreachable" ${mentions} times: ${down.output.slice(-300)}`],
      `exit ${down.status}, one message`,
    );

    const faulty = await startMock({ port: 0, faults: ['total-is-page-size'] });
    let wrong: Run;
    try {
      const lines = Object.entries(faulty.env).map(([name, value]) => `${name}=${value}`);
      writeFileSync(join(app, 'faulty.env'), `${lines.join('\n')}\n`);
      wrong = await command(
        app,
        ['--env-file', 'faulty.env', '--reports', 'out/faulty', '--grep', 'PAG-TOTAL'],
        cleanEnv(),
        'nonconformant',
      );
    } finally {
      await faulty.stop();
    }
    const judged = outcomeOf(join(app, 'out', 'faulty', 'conformance.json'));
    report(
      'nonconformant (--env-file, --reports, --grep)',
      wrong.status === 1 && judged.decidedBy?.some((line) => line.startsWith('PAG-TOTAL (MUST) failed'))
        ? []
        : [`exit ${wrong.status} (expected 1, decided by PAG-TOTAL): ${JSON.stringify(judged)}`],
      `exit ${wrong.status}, ${judged.decidedBy?.[0]?.slice(0, 60)}…`,
    );

    // Other collections: the package's example OpenAPI document, read by the compiled reader offline, lists the
    // refunds checks; a collections file with a mistake is a bad configuration that names its line and pointer.
    const example = join('node_modules', COMMAND, 'examples', 'openapi.yaml');
    const listed = await command(app, ['--collections', example, '--', '--list'], cleanEnv(), 'collections-list');
    writeFileSync(join(app, 'bad-collections.yaml'), 'collections:\n  - name: refunds\n    path: /r\n    sort: []\n');
    const bad = await command(
      app,
      ['--collections', 'bad-collections.yaml', '--reports', 'out/bad'],
      cleanEnv(),
      'collections-bad',
    );
    report(
      '--collections (the example OpenAPI document; a file with a mistake)',
      [
        ...(listed.status === 0 && /PAG-SIZE refunds: /.test(listed.output)
          ? []
          : [`--list exited ${listed.status}: ${listed.output.slice(-300)}`]),
        ...(bad.status === 2 &&
        /bad-collections\.yaml line 4 \(\/collections\/0\/sort\): unknown field "sort": did you mean "sorts"\?/.test(
          bad.output,
        )
          ? []
          : [`a bad file: exit ${bad.status} (expected 2, naming line 4): ${bad.output.slice(-300)}`]),
      ],
      `--list exit ${listed.status} with the refunds checks; a bad file exit ${bad.status}`,
    );

    // The HTML report without Allure (a devDependency): conformance.html, and how to get Allure.
    const html = await command(app, ['report', '--reports', 'out/faulty'], cleanEnv(), 'report');
    const rules = await command(app, ['--list-rules'], cleanEnv(), 'list-rules');
    report(
      'report and --list-rules (compiled commands)',
      [
        ...(html.status === 0 && existsSync(join(app, 'out', 'faulty', 'conformance.html'))
          ? []
          : [`report exited ${html.status}: ${html.output.slice(-300)}`]),
        ...(html.output.includes('npm install --no-save allure@') ? [] : ['report does not say how to get Allure']),
        ...(rules.status === 0 && rules.output.includes('PAG-TOTAL') ? [] : [`--list-rules exited ${rules.status}`]),
      ],
      `report exit ${html.status} (conformance.html; Allure: how to get it); --list-rules exit ${rules.status}`,
    );

    const fidelity = await fidelityScenario(app, (args, log, via) => command(app, args, cleanEnv(), log, via));
    report('fidelity (compare, --calibrate, the mock loading the calibration)', fidelity.problems, fidelity.detail);

    // What those runs wrote and printed; the env files are the user's own and hold keys by design.
    rmSync(join(app, 'faulty.env'));
    const keys = [...Object.values(CANARY_KEYS), ...Object.values(faulty.env).filter((v) => v.startsWith('sk_'))];
    const scan = scanPaths([join(app, 'reports'), join(app, 'out'), join(app, 'logs')], keys, [KEY_SHAPE]);
    report(
      'no key in any output',
      scan.hits.map((h) => `key leak: ${h.file} (${h.form})`),
      `${scan.files} files scanned`,
    );
  } catch (error) {
    report('package', [error instanceof Error ? error.message : String(error)], 'could not pack, install or run');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return results;
}
