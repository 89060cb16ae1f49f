#!/usr/bin/env node
/**
 * payment-api-conformance: the conformance suite as one command, for CI. It runs the Playwright suite of this
 * package (compiled in dist/ when installed, the TypeScript sources in a clone) against the bundled mock or the
 * target in the environment, then exits with the outcome the rule matrix decided (reports/conformance.json):
 * 0 conformant, 1 nonconformant, 2 bad configuration, 3 inconclusive. Plain JavaScript: it needs no build.
 * It never reads or prints a key; the suite validates the config and redacts keys everywhere it writes.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const PACKAGE = fileURLToPath(new URL('..', import.meta.url));
const readJson = (path) => JSON.parse(readFileSync(resolve(PACKAGE, path), 'utf8'));
const NAME = 'payment-api-conformance';
const EXIT = { conformant: 0, nonconformant: 1, badConfiguration: 2, inconclusive: 3 };

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
  grep: { type: 'string', short: 'g' },
  reports: { type: 'string' },
  'env-file': { type: 'string' },
  profile: { type: 'string' },
  baseline: { type: 'string' },
  'write-baseline': { type: 'string' },
  'list-rules': { type: 'boolean' },
};

function help() {
  const variables = readJson('core/run/variables.json');
  const width = Math.max(...variables.map((v) => v.name.length));
  const groups = {
    target: 'The target (else the bundled mock)',
    run: 'The run',
    politeness: 'Politeness (the whole run, every worker)',
    replay: 'Replay',
    network: 'Network',
  };
  const lines = [
    `Usage: ${NAME} [options] [-- <playwright test options>]`,
    `       ${NAME} <command> [arguments]`,
    '',
    'Checks an HTTP API (or a mock of it) against the payment API spec, rule by rule, with GET requests only.',
    'With no API_BASE_URL it starts the bundled mock and checks that. Reads .env (or .env.<profile>) from the',
    'current directory; the environment wins over the files.',
    '',
    'Options:',
    '  -h, --help           this text',
    '  -v, --version        the version of the suite, Playwright and Node',
    '  -g, --grep REGEX     only the checks whose title matches, e.g. AUTH- or PAG-TOTAL (CONFORMANCE_GREP)',
    '      --reports DIR    write every report under DIR (CONFORMANCE_REPORTS_DIR; default ./reports)',
    '      --env-file FILE  read FILE instead of .env (CONFORMANCE_ENV_FILE); parsed by the suite, never by Node',
    '      --profile NAME   read .env.NAME too: sandbox, live (cutover checklist), mock (CONFORMANCE_PROFILE)',
    '      --baseline FILE  known deviations: the failures FILE lists (until their date) do not fail the run; new',
    '                       ones do, an expired entry does, a fixed one is named (CONFORMANCE_BASELINE)',
    '      --write-baseline FILE',
    "                       write FILE from this run's failures, to edit (CONFORMANCE_WRITE_BASELINE)",
    '      --list-rules     print the rule catalogue (id, section, level, requirement); runs nothing',
    '  -- ...               everything after -- goes to `playwright test` (e.g. -- --workers=1 --shard=1/2)',
    '',
    'Commands:',
    ...Object.entries(COMMANDS).map(([name, about]) => `  ${name.padEnd(19)}${about}`),
    '',
    'Environment variables (default in brackets):',
  ];
  for (const [group, title] of Object.entries(groups)) {
    lines.push(`  ${title}:`);
    for (const v of variables.filter((x) => x.group === group)) {
      lines.push(`    ${v.name.padEnd(width)}  ${v.about} [${v.default}]`);
    }
  }
  lines.push(
    '',
    'Exit codes (also in reports/conformance.json, "outcome"):',
    '  0  conformant: every MUST check that ran passed',
    '  1  nonconformant: a MUST rule failed (an advisory one too with CONFORMANCE_STRICT=1)',
    '  2  bad configuration: nothing was sent (a missing or malformed variable, an unknown option)',
    '  3  inconclusive: the target was unreachable or stopped answering, the request budget ran out before',
    '     every MUST check ran, or the data changed under a check; the run could not judge',
    '',
    'Reports: DIR/conformance.md, conformance.json and conformance.html (the rule matrix; the page opens from disk),',
    'junit.xml (one test case per check), requests.ndjson and requests.har (every request of the run), html/,',
    'results.json, allure-results/ (`report` builds the Allure report). No key is ever printed or written.',
    '',
    'Examples:',
    `  npx ${NAME}                                   # the bundled mock`,
    `  API_BASE_URL=https://sandbox.example npx ${NAME} --env-file ci.env --reports out`,
    `  npx ${NAME} --profile sandbox --grep 'AUTH-|MODE-'`,
  );
  return lines.join('\n');
}

function version() {
  const own = readJson('package.json').version;
  const playwright = createRequire(import.meta.url)('@playwright/test/package.json').version;
  return `${NAME} ${own} (Playwright ${playwright}, Node ${process.version})`;
}

/** The Playwright config to run: the sources in a clone (Playwright compiles them), else the compiled package. */
function suiteConfig() {
  for (const path of ['playwright.config.ts', 'dist/playwright.config.js']) {
    if (existsSync(resolve(PACKAGE, path))) return resolve(PACKAGE, path);
  }
  return undefined;
}

/** The shard of Playwright's options (`--shard=2/3` or `--shard 2/3`), or undefined. */
function shardOf(args) {
  const i = args.findIndex((a) => a === '--shard' || a.startsWith('--shard='));
  const value = i < 0 ? undefined : args[i].includes('=') ? args[i].split('=')[1] : args[i + 1];
  const m = /^(\d+)\/(\d+)$/.exec(value ?? '');
  return m ? { current: Number(m[1]), total: Number(m[2]) } : undefined;
}

function fail(code, message) {
  console.error(`${NAME}: ${message}`);
  process.exit(code);
}

/**
 * The subcommands, each a module of commands/ whose `main(args)` returns the exit code. In a clone they run from the
 * TypeScript sources (through tsx, a devDependency of the clone); the installed package runs their compiled form in
 * dist/commands/.
 */
const COMMANDS = {
  merge: 'one rule matrix, outcome and exit code from the results of several shards: merge DIR…',
  init: 'write the example env file into the current folder: init [--profile sandbox|live] [--force]',
  diff: 'what changed between two runs (rules newly failing or passing, evidence): diff A B [--markdown FILE]',
  report: 'the HTML reports of a run, each one file that opens from disk: report [--reports DIR]',
  rules: 'the rule catalogue: id, section, level, requirement [--json]',
};

/**
 * How the user started the suite, as they would type it again: `npm run conformance --` (an npm script, in a clone or
 * a project's own package.json), `npx payment-api-conformance` (the installed command), or `node <path>` (a clone's
 * bin run directly). Replay lines and hints use it (CONFORMANCE_COMMAND).
 */
function commandForm() {
  if (process.env.npm_lifecycle_event === 'conformance') return 'npm run conformance --';
  if (existsSync(resolve(PACKAGE, 'playwright.config.ts'))) {
    return `node ${relative(process.cwd(), fileURLToPath(import.meta.url)) || fileURLToPath(import.meta.url)}`;
  }
  return `npx ${NAME}`;
}

/** A word as a POSIX shell reads it back. */
const shellWord = (w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, "'\\''")}'`);

/** The options of this run a replay must carry (where the target and the reports are), in the form they were given. */
function replayFlags(tokens) {
  const kept = ['env-file', 'profile', 'reports'];
  return tokens
    .filter((t) => t.kind === 'option' && kept.includes(t.name) && t.value !== undefined)
    .map((t) => (t.inlineValue ? `${t.rawName}=${shellWord(t.value)}` : `${t.rawName} ${shellWord(t.value)}`));
}

/** The live run that holds a reports folder (core/run/reports-lock.ts writes its .run.lock), if another one does. */
function holderOf(dir) {
  try {
    const holder = JSON.parse(readFileSync(join(dir, '.run.lock'), 'utf8'));
    if (typeof holder.pid !== 'number' || holder.pid === process.pid) return undefined;
    try {
      process.kill(holder.pid, 0);
    } catch (error) {
      if (error.code !== 'EPERM') return undefined;
    }
    return holder;
  } catch {
    return undefined;
  }
}

const heldBy = (dir, holder) =>
  `another run (pid ${holder.pid}, started ${holder.started}) is writing its reports to ${dir}: wait for it to end, or give this run its own folder with --reports DIR (CONFORMANCE_REPORTS_DIR)`;

async function runCommand(name, args) {
  process.env.CONFORMANCE_COMMAND = commandForm();
  const source = resolve(PACKAGE, 'commands', `${name}.ts`);
  let module;
  if (existsSync(source)) {
    const { register } = await import('tsx/esm/api');
    register();
    module = await import(pathToFileURL(source).href);
  } else {
    const compiled = resolve(PACKAGE, 'dist', 'commands', `${name}.js`);
    if (!existsSync(compiled))
      fail(EXIT.inconclusive, `this installation has no compiled ${name} command (${compiled})`);
    module = await import(pathToFileURL(compiled).href);
  }
  process.exit(await module.main(args));
}

const argv = process.argv.slice(2);
if (argv[0] && Object.hasOwn(COMMANDS, argv[0])) await runCommand(argv[0], argv.slice(1));
const dashes = argv.indexOf('--');
const own = dashes === -1 ? argv : argv.slice(0, dashes);
const passthrough = dashes === -1 ? [] : argv.slice(dashes + 1);
let values;
let tokens;
try {
  ({ values, tokens } = parseArgs({
    args: own,
    options: OPTIONS,
    strict: true,
    allowPositionals: false,
    tokens: true,
  }));
} catch (error) {
  fail(EXIT.badConfiguration, `${error.message}\nRun ${NAME} --help for the options.`);
}
if (values.help) {
  console.log(help());
  process.exit(0);
}
if (values.version) {
  console.log(version());
  process.exit(0);
}
if (values['list-rules']) await runCommand('rules', []);

const env = { ...process.env };
const setFrom = (option, variable, value = values[option]) => {
  if (value === undefined) return;
  if (value.trim() === '') fail(EXIT.badConfiguration, `--${option} needs a value`);
  env[variable] = value;
};
setFrom('grep', 'CONFORMANCE_GREP');
setFrom('env-file', 'CONFORMANCE_ENV_FILE', values['env-file'] && resolve(values['env-file']));
setFrom('profile', 'CONFORMANCE_PROFILE');
setFrom('reports', 'CONFORMANCE_REPORTS_DIR', values.reports && resolve(values.reports));
setFrom('baseline', 'CONFORMANCE_BASELINE', values.baseline && resolve(values.baseline));
setFrom('write-baseline', 'CONFORMANCE_WRITE_BASELINE', values['write-baseline'] && resolve(values['write-baseline']));
const reports = resolve(env.CONFORMANCE_REPORTS_DIR?.trim() || 'reports');
env.CONFORMANCE_REPORTS_DIR = reports;
// How to run it again: replay lines name the command and the options that say where the target and reports are.
env.CONFORMANCE_COMMAND = commandForm();
env.CONFORMANCE_INVOCATION = [env.CONFORMANCE_COMMAND, ...replayFlags(tokens)].join(' ');
// One run per reports folder: another one writing there now is named, and nothing of its is touched.
const holder = holderOf(reports);
if (holder) fail(EXIT.badConfiguration, heldBy(reports, holder));

const config = suiteConfig();
if (!config) fail(EXIT.inconclusive, `this installation has no compiled suite (${PACKAGE}dist/ is missing)`);
const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
// `-- --list` lists the checks and runs nothing: no report is written (the list reporter only), none is removed, and
// the exit code is Playwright's.
if (passthrough.includes('--list')) {
  const reporter = passthrough.some((a) => a === '--reporter' || a.startsWith('--reporter='))
    ? []
    : ['--reporter=list'];
  const listing = spawn(process.execPath, [cli, 'test', '--config', config, ...passthrough, ...reporter], {
    env,
    stdio: 'inherit',
  });
  process.exit(await new Promise((done) => listing.on('exit', (code) => done(code ?? EXIT.inconclusive))));
}
// The rule matrix of this run decides the exit code: one left by an earlier run must not. A shard writes its own
// (reporters/rule-matrix.ts, shardFolder).
const shard = shardOf(passthrough);
const matrix = resolve(reports, ...(shard ? [`shard-${shard.current}-of-${shard.total}`] : []), 'conformance.json');
rmSync(matrix, { force: true });

const child = spawn(process.execPath, [cli, 'test', '--config', config, ...passthrough], { env, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('error', (error) => fail(EXIT.inconclusive, `could not start Playwright: ${error.message}`));
child.on('exit', (code, signal) => {
  let outcome;
  try {
    outcome = JSON.parse(readFileSync(matrix, 'utf8')).outcome;
  } catch {
    // Another run took the folder between our look and Playwright's start: the config said so and stopped.
    const taken = holderOf(reports);
    if (taken) fail(EXIT.badConfiguration, heldBy(reports, taken));
    // No rule matrix: Playwright stopped before its reporters ended (an option it refused, a crash, a signal).
    const how = signal ? `was stopped by ${signal}` : `exited with ${code}`;
    fail(EXIT.inconclusive, `Playwright ${how} before writing ${matrix}: inconclusive (exit 3)`);
  }
  process.exit(Object.values(EXIT).includes(outcome?.exitCode) ? outcome.exitCode : EXIT.inconclusive);
});
