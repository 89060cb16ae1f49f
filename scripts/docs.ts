/**
 * `npm run docs`: writes the tables that derive from the rule catalogue, the fault catalogue, the variant
 * dimensions and the variables (core/run/variables.json, which `--help` prints too): docs/rules.md (whole page), and the
 * marked blocks of README.md and docs/mock.md; and every figure the docs quote that the code defines (FIGURES: the
 * fault count, retry counts, the pace's margin, the layout version, …), inline in README.md and docs/*.md.
 * tests/unit/docs.test.ts fails when a committed file differs from what this would write.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { AJV_OPTIONS } from '../checks/schemas.ts';
import { MAX_429_RETRIES, TARGET_GONE_AFTER, TRANSPORT_RETRIES } from '../core/client/http.ts';
import { MAX_PAUSE_MS, SLOT_SPACING } from '../core/client/pace.ts';
import { MAX_BODY } from '../core/client/transport.ts';
import { DEPTH_PROFILES } from '../core/model/depth.ts';
import { MAX_LIMIT } from '../core/model/listing.ts';
import { isGeneral, RULES, ruleIdOfTitle } from '../core/model/rules.ts';
import { BOUNDED_RECORDS, BOUNDED_RUNS } from '../core/run/learn.ts';
import { MIN_CHECK_LIMIT_MS } from '../core/run/limits.ts';
import variables from '../core/run/variables.json' with { type: 'json' };
import { FAULTS, VARIANT_DIMENSIONS } from '../mock/index.ts';
import { PROGRESS_EVERY_MS } from '../reporters/progress.ts';
import { SCHEMA_VERSION } from '../reporters/summary.ts';
import envelopeSchema from '../schemas/envelope.schema.json' with { type: 'json' };
import paymentSchema from '../schemas/payment.schema.json' with { type: 'json' };
import { COLLECTION_FAULTS, EXAMPLE_COLLECTIONS } from '../tests/proof/collection-projects.ts';
import { DEFAULT_COMBINATIONS } from '../tests/proof/legal-space.ts';
import { VARIANT_SETS } from '../tests/proof/variant-sets.ts';
import { listedChecks } from './listed-checks.ts';

const ROOT = new URL('..', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, ROOT), 'utf8');
const cell = (text: string) => text.replace(/\|/g, '\\|');
const table = (head: string[], rows: string[][]) =>
  [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join(
    '\n',
  );

/** Which spec files hold checks of each rule, as Playwright lists the checks of a run with the example collection. */
export function checkedIn(): Map<string, string[]> {
  const where = new Map<string, string[]>();
  for (const { title, file } of listedChecks(EXAMPLE_COLLECTIONS)) {
    const id = ruleIdOfTitle(title);
    if (!id) continue;
    const files = where.get(id) ?? [];
    if (!files.includes(file)) where.set(id, [...files, file].sort());
  }
  return where;
}

const faultsOf = (id: string) => FAULTS.filter((f) => f.rule === id).map((f) => `\`${f.name}\``);

function rulesTable(links: (path: string) => string): string {
  const where = checkedIn();
  return table(
    ['rule', 'spec §', 'requirement', 'level', 'checked in'],
    RULES.map((r) => [
      r.id,
      r.section,
      cell(r.requirement),
      r.level,
      (where.get(r.id) ?? ['**no check**']).map(links).join(', '),
    ]),
  );
}

function rulesPage(): string {
  const link = (p: string) => (p.startsWith('**') ? p : `[\`${p}\`](../${p})`);
  return [
    '# Rule catalogue',
    '',
    '<!-- Generated from core/model/rules.ts by `npm run docs`; edit the catalogue, not this page. -->',
    '',
    'Every check of the suite carries one of these ids first in its test title and in its failure message, so',
    'a failure leads to the spec section in one hop, and `npm run conformance -- --grep PAG-` runs one group. Sections',
    "cite the vendor's API spec; [reading.md](reading.md) says how the suite reads the points it leaves open.",
    'MUST rules fail the run; ADVISORY rules are reported and fail it only with `CONFORMANCE_STRICT=1`.',
    '',
    rulesTable(link),
    '',
    "## Rule families: the spec's ids and the general ones",
    '',
    "Two of the vendor spec's ids name the question on its own collection: FLT-STATUS is `filter[status]` on payments,",
    'SRT-AMOUNT `sort=amount`. The same questions on any other collection (`--collections`) have general ids; a check',
    "on payments reports the spec's id, one on another collection the general id. Each family is one question:",
    '`--grep` with either id selects the checks of both, a baseline entry of either id excuses a failure of the other',
    '(its `match` read with either id at the head of the title), and `diff` pairs a run written before the general',
    'ids with one after.',
    '',
    table(
      ['general rule', "the spec's instance", 'on'],
      RULES.flatMap((r) => ('instanceOf' in r ? [[r.instanceOf, r.id, r.on]] : [])),
    ),
    '',
    '## Faults of the reference mock, by rule',
    '',
    'Each rule is broken by at least one fault of the mock ([mock.md](mock.md)); `npm test` runs the suite once per',
    "fault and requires a violation of that fault's rule; a general rule's are its instance's, switched on for another",
    'collection (`NAME@refunds`, on the example collection).',
    '',
    table(
      ['rule', 'faults'],
      RULES.map((r) => [r.id, faultsOf(r.id).join(', ') || (isGeneral(r.id) ? "its instance's" : '**none**')]),
    ),
    '',
  ].join('\n');
}

const variantsTable = () =>
  table(
    ['Dimension', 'Values (default first)', 'What each value does', 'Spec gap'],
    VARIANT_DIMENSIONS.map((d) => [
      `\`${d.name}\``,
      d.values.map((v, i) => (i === 0 ? `**${v}**` : v)).join(', '),
      cell(d.description),
      cell(d.gap),
    ]),
  );

const faultsTable = () =>
  table(
    ['Fault', 'Rule', 'Deviation'],
    FAULTS.map((f) => [`\`${f.name}\``, f.rule, cell(f.description)]),
  );

const variablesTable = () =>
  table(
    ['variable', 'flag', 'default', 'used for'],
    variables.map((v) => [`\`${v.name}\``, 'flag' in v ? `\`${v.flag}\`` : '', cell(v.default), cell(v.about)]),
  );

/** The proof's projects on the example collection: its variant combinations and its scoped faults. */
const COLLECTION_PROJECTS = COLLECTION_FAULTS.length;

/** A count in words for prose: 2 → "twice". */
const times = (n: number) => (n === 1 ? 'once' : n === 2 ? 'twice' : `${n} times`);

/**
 * Figures the docs quote that the code defines, by name: written inline as `<!-- figure:NAME -->…<!-- /figure -->`
 * (the comments render as nothing), so that the prose says what the code does.
 */
export const FIGURES: Record<string, () => string> = {
  faults: () => String(FAULTS.length),
  'variant-sets': () => String(Object.keys(VARIANT_SETS).length),
  'variant-axes': () => String(VARIANT_DIMENSIONS.length),
  'legal-combinations': () => String(DEFAULT_COMBINATIONS),
  'proof-projects': () =>
    String(FAULTS.length + Object.keys(VARIANT_SETS).length + DEFAULT_COMBINATIONS + COLLECTION_PROJECTS),
  'collection-projects': () => String(COLLECTION_PROJECTS),
  'collection-max-records': () => String(BOUNDED_RECORDS),
  'collection-runs': () => String(BOUNDED_RUNS),
  'retries-429': () => String(MAX_429_RETRIES),
  'retries-transport': () => times(TRANSPORT_RETRIES),
  'retry-after-cap': () => `${MAX_PAUSE_MS / 1000} s`,
  'pace-margin': () => `${Math.round((SLOT_SPACING - 1) * 100)} %`,
  'target-gone-after': () => String(TARGET_GONE_AFTER),
  'schema-version': () => String(SCHEMA_VERSION),
  'progress-every': () => `${PROGRESS_EVERY_MS / 1000} s`,
  'min-check-limit': () => `${MIN_CHECK_LIMIT_MS / 1000} s`,
  'max-body': () => `${MAX_BODY / 1024 / 1024} MB`,
  'max-limit': () => String(MAX_LIMIT),
  budget: () => DEPTH_PROFILES.standard.budget.toLocaleString('en-US'),
  'max-records': () => Number(defaultOf('API_MAX_RECORDS')).toLocaleString('en-US'),
};

function defaultOf(name: string): string {
  const v = variables.find((x) => x.name === name);
  if (!v) throw new Error(`no variable ${name} in core/run/variables.json`);
  return v.default;
}

function fillFigures(text: string, path: string): string {
  return text.replace(/<!-- figure:([a-z0-9-]+) -->[^<\n]*<!-- \/figure -->/g, (_, name: string) => {
    const figure = FIGURES[name];
    if (!figure) throw new Error(`${path}: unknown figure "${name}"`);
    return `<!-- figure:${name} -->${figure()}<!-- /figure -->`;
  });
}

/** The generated blocks, by name: `<!-- generated:NAME -->` … `<!-- /generated:NAME -->` in a file. */
const BLOCKS: Record<string, () => string> = {
  rules: () => rulesTable((p) => (p.startsWith('**') ? p : `\`${p}\``)),
  variants: variantsTable,
  faults: faultsTable,
  variables: variablesTable,
};

function fillBlocks(text: string, path: string): string {
  const filled = text.replace(
    /(<!-- generated:([a-z]+) -->\n)[\s\S]*?(\n<!-- \/generated:\2 -->)/g,
    (_, open, name, close) => {
      const block = BLOCKS[name];
      if (!block) throw new Error(`${path}: unknown generated block "${name}"`);
      return `${open}${block()}${close}`;
    },
  );
  return fillFigures(filled, path);
}

/**
 * checks/schemas.compiled.ts: the validators of the envelope and the payment record, compiled by ajv ahead of time
 * (standalone code): a worker validates from its first check without loading ajv or compiling (about 0.1 s each).
 */
function compiledSchemas(): string {
  const ajv = new Ajv2020({ ...AJV_OPTIONS, code: { source: true, esm: true } });
  ajv.addSchema(envelopeSchema, 'envelope');
  ajv.addSchema(paymentSchema, 'payment');
  const code = standaloneCode.default(ajv, { envelope: 'envelope', payment: 'payment' });
  if (/\brequire\(|^import /m.test(code)) throw new Error('the compiled schemas need ajv at run time: add it here');
  return [
    '// @ts-nocheck',
    '// Generated from schemas/envelope.schema.json and schemas/payment.schema.json by `npm run docs` (ajv standalone',
    '// code, checks/schemas.ts AJV_OPTIONS); edit the schemas, not this file. tests/unit/docs.test.ts fails when stale.',
    code,
    '',
  ].join('\n');
}

/** Every generated file with the content it should have. */
export function expectedDocs(): Map<string, string> {
  return new Map([
    ['docs/rules.md', rulesPage()],
    ['README.md', fillBlocks(read('README.md'), 'README.md')],
    ['docs/mock.md', fillBlocks(read('docs/mock.md'), 'docs/mock.md')],
    ['docs/reading.md', fillBlocks(read('docs/reading.md'), 'docs/reading.md')],
    ['checks/schemas.compiled.ts', compiledSchemas()],
  ]);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const [path, text] of expectedDocs()) {
    const before = (() => {
      try {
        return read(path);
      } catch {
        return '';
      }
    })();
    if (before !== text) {
      writeFileSync(new URL(path, ROOT), text);
      console.log(`docs: wrote ${path}`);
    }
  }
}
