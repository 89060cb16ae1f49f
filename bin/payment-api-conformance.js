#!/bin/sh
//usr/bin/env true; n=0; for a do export "PAYMENT_API_CONFORMANCE_ARG_$n=$a"; n=$((n + 1)); done; PAYMENT_API_CONFORMANCE_ARGC=$n exec node "$0"
/**
 * payment-api-conformance: the conformance suite as one command, for CI. It runs the Playwright suite of this
 * package (compiled in dist/ when installed, the TypeScript sources in a clone) against the bundled mock or the
 * target in the environment, then exits with the outcome the rule matrix decided (reports/conformance.json):
 * 0 conformant, 1 nonconformant, 2 bad configuration, 3 inconclusive. Plain JavaScript: it needs no build.
 * It never reads or prints a key; the suite validates the config and redacts keys everywhere it writes.
 *
 * Started as a command (its first two lines), a POSIX shell hands the arguments to Node in the environment, never on
 * Node's command line: Node 20.6 and later read a `--env-file FILE` anywhere on their own command line, even after the
 * script's name, and stop with exit 9 when FILE is missing, before any JavaScript runs (nodejs/node#54232; a `--`
 * before the script stops that only from Node 20.19 and 22.7 on). Through the shell, `--env-file` is the suite's own
 * on every Node version, and on every system with a /bin/sh (`env -S node --` would need a GNU or BSD env: not
 * Alpine's). Run as `node bin/payment-api-conformance.js …` the file is JavaScript from the start: the second line is a
 * comment (to the shell, `//usr/bin/env true` does nothing), and the arguments are on Node's command line as usual.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { help, version } from './help.js';

/** The arguments, from the environment when the shell lines started Node (removed there: no child inherits them). */
function commandArguments() {
  const count = process.env.PAYMENT_API_CONFORMANCE_ARGC;
  delete process.env.PAYMENT_API_CONFORMANCE_ARGC;
  const args = [];
  for (let i = 0; count !== undefined && i < Number(count); i++) {
    args.push(process.env[`PAYMENT_API_CONFORMANCE_ARG_${i}`] ?? '');
    delete process.env[`PAYMENT_API_CONFORMANCE_ARG_${i}`];
  }
  return count === undefined ? process.argv.slice(2) : args;
}

const PACKAGE = fileURLToPath(new URL('..', import.meta.url));
/** What a run writes and how it ends, named once for the suite and this command (core/model/outputs.ts types it). */
const OUTPUTS = createRequire(import.meta.url)('../core/model/outputs.json');
const NAME = OUTPUTS.package;
const EXIT = {
  conformant: OUTPUTS.exitCodes.conformant,
  nonconformant: OUTPUTS.exitCodes.nonconformant,
  badConfiguration: OUTPUTS.exitCodes['bad configuration'],
  inconclusive: OUTPUTS.exitCodes.inconclusive,
};
/** A shard's folder under the reports folder (`shard-2-of-3`). */
const shardFolder = (shard) =>
  OUTPUTS.shardFolder.replace('{current}', String(shard.current)).replace('{total}', String(shard.total));

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
  grep: { type: 'string', short: 'g' },
  reports: { type: 'string' },
  'env-file': { type: 'string' },
  profile: { type: 'string' },
  baseline: { type: 'string' },
  'write-baseline': { type: 'string' },
  collections: { type: 'string' },
  vocabulary: { type: 'string' },
  depth: { type: 'string' },
  'max-time': { type: 'string' },
  'list-rules': { type: 'boolean' },
};

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
  fidelity:
    'how faithfully a mock answers like a target, and the mock setting closest to it: fidelity A B…, --calibrate A, --check FILE A',
};
/** A command whose module is not commands/<name> (fidelity starts the bundled mock: a layer above commands/). */
const COMMAND_MODULES = { fidelity: 'fidelity/main' };

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

/** The options of this run a replay must carry (where the target is, how deep), in the form they were given. */
function replayFlags(tokens) {
  const kept = ['env-file', 'profile', 'depth'];
  return tokens
    .filter((t) => t.kind === 'option' && kept.includes(t.name) && t.value !== undefined)
    .map((t) => (t.inlineValue ? `${t.rawName}=${shellWord(t.value)}` : `${t.rawName} ${shellWord(t.value)}`));
}

/** The live run that holds a reports folder (reporters/reports-lock.ts writes its .run.lock), if another one does. */
function holderOf(dir) {
  try {
    const holder = JSON.parse(readFileSync(join(dir, OUTPUTS.lockFile), 'utf8'));
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

let tsxRegistered = false;

/**
 * A module of the suite by its source path (`commands/merge`): in a clone the TypeScript source, through tsx (a
 * devDependency of the clone); in the installed package its compiled form in dist/.
 */
async function suiteModule(path) {
  const source = resolve(PACKAGE, `${path}.ts`);
  if (existsSync(source)) {
    if (!tsxRegistered) (await import('tsx/esm/api')).register();
    tsxRegistered = true;
    return import(pathToFileURL(source).href);
  }
  const compiled = resolve(PACKAGE, 'dist', `${path}.js`);
  if (!existsSync(compiled)) fail(EXIT.inconclusive, `this installation has no compiled ${path} (${compiled})`);
  return import(pathToFileURL(compiled).href);
}

async function runCommand(name, args) {
  process.env.CONFORMANCE_COMMAND = commandForm();
  const module = await suiteModule(COMMAND_MODULES[name] ?? `commands/${name}`);
  process.exit(await module.main(args));
}

/** `did you mean …?` for a near miss of one of `known`, else nothing (core/model/near-miss.ts). */
async function hint(word, known) {
  const { closest } = await suiteModule('core/model/near-miss');
  const meant = closest(word, known);
  return meant ? `: did you mean ${meant}?` : '';
}

/**
 * Refuses the run for its options, before Playwright starts: bad configuration (exit 2). Like a run its configuration
 * refused, it writes the whole set of reports in place of an earlier run's (commands/set-up.ts), unless another run
 * holds the folder.
 */
async function refuseOptions(problem, reportsOption) {
  const dir = resolve(reportsOption?.trim() || process.env.CONFORMANCE_REPORTS_DIR?.trim() || 'reports');
  const { refuseRun } = await suiteModule('commands/set-up');
  const holder = refuseRun(dir, [problem]);
  fail(EXIT.badConfiguration, `${problem}\nRun ${NAME} --help for the options.${holder ? '' : ` Reports: ${dir}`}`);
}

const argv = commandArguments();
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
  // What the user typed is echoed: a key pasted in the wrong place is redacted like every text the suite writes.
  const { redact } = await suiteModule('core/model/secrets');
  // A word that is no option: a command mistyped (`merg`), never a run; nothing is written.
  const positional = /^Unexpected argument '(.*)'/.exec(error.message)?.[1];
  if (positional !== undefined) {
    const meant = await hint(positional, Object.keys(COMMANDS));
    fail(
      EXIT.badConfiguration,
      redact(`unexpected argument ${positional}${meant}\nRun ${NAME} --help for the commands.`),
    );
  }
  const unknown = /^Unknown option '(.*?)'/.exec(error.message)?.[1];
  const names = Object.entries(OPTIONS).flatMap(([name, o]) => [`--${name}`, ...(o.short ? [`-${o.short}`] : [])]);
  const problem = unknown
    ? `unknown option ${unknown}${await hint(unknown.split('=')[0], names)}`
    : error.message.replace(/^Option '(.*?)(?: <value>)?' argument missing$/, '$1 needs a value');
  const lenient = parseArgs({ args: own, options: OPTIONS, strict: false, allowPositionals: true }).values;
  await refuseOptions(redact(problem), typeof lenient.reports === 'string' ? lenient.reports : undefined);
}
if (values.help) {
  console.log(help(COMMANDS));
  process.exit(0);
}
if (values.version) {
  console.log(version());
  process.exit(0);
}
if (values['list-rules']) await runCommand('rules', []);

const env = { ...process.env };
const empty = Object.keys(OPTIONS).find((o) => typeof values[o] === 'string' && values[o].trim() === '');
if (empty) await refuseOptions(`--${empty} needs a value`, values.reports);
const setFrom = (option, variable, value = values[option]) => {
  if (value !== undefined) env[variable] = value;
};
setFrom('grep', 'CONFORMANCE_GREP');
setFrom('env-file', 'CONFORMANCE_ENV_FILE', values['env-file'] && resolve(values['env-file']));
setFrom('profile', 'CONFORMANCE_PROFILE');
setFrom('reports', 'CONFORMANCE_REPORTS_DIR', values.reports && resolve(values.reports));
setFrom('baseline', 'CONFORMANCE_BASELINE', values.baseline && resolve(values.baseline));
setFrom('write-baseline', 'CONFORMANCE_WRITE_BASELINE', values['write-baseline'] && resolve(values['write-baseline']));
setFrom('collections', 'API_COLLECTIONS', values.collections && resolve(values.collections));
setFrom('vocabulary', 'API_VOCABULARY', values.vocabulary && resolve(values.vocabulary));
setFrom('depth', 'CONFORMANCE_DEPTH');
setFrom('max-time', 'CONFORMANCE_MAX_TIME');
// The run-wide clock of the time budget (--max-time) starts with this command, not with Playwright.
env.CONFORMANCE_STARTED_AT = String(Math.round(performance.timeOrigin));
const reports = resolve(env.CONFORMANCE_REPORTS_DIR?.trim() || 'reports');
env.CONFORMANCE_REPORTS_DIR = reports;
// How to run it again: replay lines name the command and the options that say where the target is (each replay
// writes its reports to a folder of its own beside this run's: core/run/property.ts).
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
// (reporters/end-of-run.ts; its folder: core/model/outputs.json).
const shard = shardOf(passthrough);
const resultFile = resolve(reports, ...(shard ? [shardFolder(shard)] : []), OUTPUTS.reportFiles.json);
rmSync(resultFile, { force: true });

const child = spawn(process.execPath, [cli, 'test', '--config', config, ...passthrough], { env, stdio: 'inherit' });
// A stop (Ctrl-C, or what a CI system sends a cancelled job): Playwright stops on SIGINT alone, gracefully — the checks
// that ended keep their verdicts, the others are "not run (interrupted)", and every report is written. A second
// signal stops it at once.
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (stopping) {
      child.kill('SIGKILL');
      fail(EXIT.inconclusive, `${signal} again: stopped at once; the reports in ${reports} may be incomplete (exit 3)`);
    }
    stopping = true;
    console.error(
      `${NAME}: ${signal}: stopping; the checks already judged keep their verdicts and every report is written (${signal} again stops at once)`,
    );
    child.kill('SIGINT');
  });
}
child.on('error', (error) => fail(EXIT.inconclusive, `could not start Playwright: ${error.message}`));
child.on('exit', (code, signal) => {
  let outcome;
  try {
    outcome = JSON.parse(readFileSync(resultFile, 'utf8')).outcome;
  } catch {
    // Another run took the folder between our look and Playwright's start: the config said so and stopped.
    const taken = holderOf(reports);
    if (taken) fail(EXIT.badConfiguration, heldBy(reports, taken));
    // No rule resultFile: Playwright stopped before its reporters ended (an option it refused, a crash, a signal).
    const how = signal ? `was stopped by ${signal}` : `exited with ${code}`;
    fail(EXIT.inconclusive, `Playwright ${how} before writing ${resultFile}: inconclusive (exit 3)`);
  }
  process.exit(Object.values(EXIT).includes(outcome?.exitCode) ? outcome.exitCode : EXIT.inconclusive);
});
