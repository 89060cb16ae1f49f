/**
 * The text of `payment-api-conformance --help` and `--version` (bin/payment-api-conformance.js): every option, every
 * variable with its default (core/run/variables.json), the commands, the exit codes and what a run writes.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE = fileURLToPath(new URL('..', import.meta.url));
const readJson = (path) => JSON.parse(readFileSync(resolve(PACKAGE, path), 'utf8'));
const NAME = 'payment-api-conformance';

/** --vocabulary: the user's names of inputs for the door checks (README "Doors"). */
const VOCABULARY = [
  '      --vocabulary FILE',
  '                       more names of inputs the spec does not document for the door checks to try, beside',
  '                       the built-in vocabulary and what the target shows: a JSON file {"entries": [{"name",',
  '                       "in": ["query"|"header"|"cookie"], "class", "source", "values"?}]} (API_VOCABULARY;',
  '                       README "Doors")',
];

/** --help, given the commands (name: what it does). */
export function help(COMMANDS) {
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
    '      --collections FILE',
    '                       more listings to check beside payments, with every rule: a collections file (JSON',
    '                       or YAML) or an OpenAPI 3.0/3.1 document (API_COLLECTIONS; README "More collections").',
    '                       Each is searched one depth below the run (quick at standard, standard at deep, quick',
    '                       at quick) with every rule and its whole access matrix, sets read up to 300 records:',
    "                       the example file's refunds adds about 345 requests at standard, 340 at quick, 910 deep",
    ...VOCABULARY,
    ...timeToVerdict(),
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
    '  2  bad configuration: a set-up mistake, no check ran: a missing or malformed variable or env file, an',
    '     unknown option (nothing sent); or what the preflight found in its few requests (a redirect, not the API,',
    '     a refused key, an unknown merchant)',
    '  3  inconclusive: the target was unreachable or stopped answering, the request budget ran out before',
    '     every MUST check ran, the data changed under a check, or the run was stopped (Ctrl-C, SIGTERM: the',
    '     checks already judged keep their verdicts; a second signal stops at once); the run could not judge',
    '',
    'Reports: DIR/conformance.md, conformance.json and conformance.html (the rule matrix; the page opens from disk),',
    'junit.xml (one test case per check), requests.ndjson and requests.har (every request of the run), html/,',
    'results.json, allure-results/ (`report` builds the Allure report), each naming the target. A run clears what an',
    'earlier one wrote in DIR first; a run refused at its set-up writes the whole set. No key is ever printed or',
    'written.',
    '',
    'Examples:',
    `  npx ${NAME}                                   # the bundled mock`,
    `  API_BASE_URL=https://sandbox.example npx ${NAME} --env-file ci.env --reports out`,
    `  npx ${NAME} --profile sandbox --grep 'AUTH-|MODE-'`,
    `  npx ${NAME} --profile sandbox --depth quick --max-time 60s         # a pull request's run`,
    `  npx ${NAME} --profile sandbox --collections my-collections.yaml   # more listings than payments`,
  );
  return lines.join('\n');
}

/** --depth, one line per depth (its name, the request bound of a default run, what it is for), and --max-time. */
function timeToVerdict() {
  const depths = readJson('core/model/depths.json');
  return [
    '      --depth NAME     how deep the run searches (CONFORMANCE_DEPTH; default standard), each with the bound',
    '                       on the requests of a default run (payments only) it is tuned to:',
    ...['quick', 'standard', 'deep'].map((name) => {
      const d = depths[name];
      const bound = `${d.requestBound.toLocaleString('en-US')} requests at most`;
      const time = d.timeBudget ? `, ${d.timeBudget} at most (its own --max-time)` : '';
      return `                         ${name.padEnd(9)} ${bound}${time}: ${d.about}`;
    }),
    '                       Each collection declared with --collections adds its own checks on top, at every depth',
    '                       (quick too): what its checks cost beside payments, outside these bounds',
    '      --max-time TIME  a time budget for the whole run: 60s, 5m, 1h30m (CONFORMANCE_MAX_TIME). The run judges',
    '                       the most telling checks first at the pace it measures; a check that cannot finish in',
    '                       time is "not run (time budget)", named in the outcome and every report. With no',
    '                       --depth named, the run plans quick when standard would not fit at the pace it sees.',
    "                       Default: none, but quick's own (above); --max-time none: no budget at any depth",
  ];
}

export function version() {
  const own = readJson('package.json').version;
  const playwright = createRequire(import.meta.url)('@playwright/test/package.json').version;
  return `${NAME} ${own} (Playwright ${playwright}, Node ${process.version})`;
}
