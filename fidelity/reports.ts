/**
 * The reports of a fidelity run, as the conformance run writes its own: one set per run in the reports folder (the
 * previous run's set is replaced, another command's files are left alone), each naming every target —
 * fidelity.md, fidelity.json (everything), fidelity.html (one page that opens from disk) and fidelity-junit.xml (one
 * test case per case compared: a difference is a failure, typed a legal choice or a rule broken; a skipped case is
 * skipped with its reason). No key: every text passes the suite's redaction.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { redact } from '../core/model/secrets.ts';
import { xml } from '../reporters/junit.ts';
import { differencesLine, type Result, ruleTable, summaryLine, table } from './compare.ts';
import { fidelityHtml, type SideShown } from './html.ts';

const FIDELITY_FILES = {
  md: 'fidelity.md',
  json: 'fidelity.json',
  html: 'fidelity.html',
  junit: 'fidelity-junit.xml',
} as const;

export interface FidelityRun {
  seed: number;
  runs: number;
  sides: SideShown[];
  results: Result[];
  /** Sections before the grid (a calibration's settings and gaps, a drift check's cases). */
  sections?: Array<{ title: string; lines: string[] }>;
  /** What the run adds to fidelity.json (a calibration, a drift check). */
  extra?: Record<string, unknown>;
}

const targetLine = (s: SideShown) => `${s.name} = ${s.file} (${s.baseURL}): total ${s.total}, ${s.sent} requests`;

function ruleRows(results: readonly Result[]): string[][] {
  return [
    ['rule', 'compared', 'differ', 'skipped', 'first difference (aspect: A vs B, case) or why skipped'],
    ...ruleTable(results).map((r) => [r.rule, String(r.compared), String(r.differ), String(r.skipped), r.first]),
  ];
}

/** The console's text: the targets, the rule table, what the differences are (the caller adds where the reports went
 * and ends with the summary line). */
export function consoleText(run: FidelityRun): string {
  return redact([...run.sides.map(targetLine), table(ruleRows(run.results)), differencesLine(run.results)].join('\n'));
}

function markdown(run: FidelityRun): string {
  const cells = (r: string[]) => `| ${r.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
  const md = ([head = [], ...rows]: string[][]) => [head, head.map(() => '---'), ...rows].map(cells);
  const many = run.sides.length > 2;
  const row = (r: Result) =>
    r.differences.map((d) => [
      d.rule,
      `${r.case.id} ${r.case.label}`,
      d.aspect,
      d.a,
      ...(many ? [d.target ?? ''] : []),
      d.b,
      [r.kind ?? '', ...(r.breaks ?? [])].join('; '),
    ]);
  const head = ['rule', 'case', 'aspect', 'A', ...(many ? ['target', 'its answer'] : ['B']), 'the difference'];
  const sections = (run.sections ?? []).flatMap((s) => [`\n## ${s.title}\n`, ...s.lines.map((l) => `- ${l}`)]);
  const skipped = run.results.filter((r) => r.skipped).map((r) => `- ${r.case.id} ${r.case.label}: ${r.skipped}`);
  return [
    '# Fidelity report\n',
    ...run.sides.map((s) => `- ${targetLine(s)}`),
    `\n**${summaryLine(run.results)}**: ${differencesLine(run.results)}\n`,
    ...md(ruleRows(run.results)),
    ...sections,
    '\n## Every difference\n',
    ...md([head, ...run.results.flatMap(row)]),
    ...(skipped.length ? ['\n## Skipped cases\n', ...skipped] : []),
    '',
  ].join('\n');
}

/** One test case per case compared or skipped: a difference is a failure typed by what it is. */
function junit(run: FidelityRun): string {
  const targets = run.sides.map(targetLine).join('; ');
  const cases = run.results.map((r) => {
    const name = `${r.case.id} ${r.case.label}`;
    const open = `<testcase classname="${xml(r.case.rule)}" name="${xml(name)}"><properties><property name="targets" value="${xml(targets)}"/></properties>`;
    if (r.skipped) return `${open}<skipped message="${xml(r.skipped)}"/></testcase>`;
    if (r.differences.length === 0) return `${open}</testcase>`;
    const text = r.differences.map((d) => `${d.rule} ${d.aspect}: A ${d.a}, ${d.target ?? 'B'} ${d.b}`).join('\n');
    const first = r.differences[0];
    const message = `${r.kind}${r.breaks?.length ? ` (${r.breaks.join('; ')})` : ''}: ${first?.aspect}: A ${first?.a} vs ${first?.b}`;
    return `${open}<failure message="${xml(message.slice(0, 300))}" type="${xml(r.kind ?? 'difference')}">${xml(text)}</failure></testcase>`;
  });
  const failures = run.results.filter((r) => !r.skipped && r.differences.length > 0).length;
  const skipped = run.results.filter((r) => r.skipped).length;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xml(`fidelity: ${targets}`)}" tests="${run.results.length}" failures="${failures}" errors="0" skipped="${skipped}">`,
    `  <testsuite name="${xml(summaryLine(run.results))}" tests="${run.results.length}" failures="${failures}" errors="0" skipped="${skipped}">`,
    ...cases.map((c) => `    ${c}`),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/** The run's set of reports in `dir`, replacing the previous run's; the files written. */
export function writeReports(dir: string, run: FidelityRun): string[] {
  mkdirSync(dir, { recursive: true });
  for (const f of Object.values(FIDELITY_FILES)) rmSync(join(dir, f), { force: true });
  const summary = summaryLine(run.results);
  const differences = differencesLine(run.results);
  const json = {
    seed: run.seed,
    runs: run.runs,
    targets: run.sides.map(targetLine),
    summary,
    differences,
    rules: ruleTable(run.results),
    ...run.extra,
    results: run.results,
  };
  const page = {
    seed: run.seed,
    runs: run.runs,
    sides: run.sides,
    summary,
    differences,
    rules: ruleTable(run.results),
  };
  // An access case's collection by its name: its declaration is not the answer's (and its `restrictedKey` reads as a secret's name).
  const byName = (k: string, v: unknown) =>
    k === 'collection' && typeof v === 'object' && v ? (v as { name: string }).name : v;
  const files: Array<[string, string]> = [
    [FIDELITY_FILES.html, fidelityHtml({ ...page, results: run.results, sections: run.sections })],
    [FIDELITY_FILES.md, redact(markdown(run))],
    [FIDELITY_FILES.json, redact(`${JSON.stringify(json, byName, 2)}\n`)],
    [FIDELITY_FILES.junit, redact(junit(run))],
  ];
  for (const [name, text] of files) writeFileSync(join(dir, name), text);
  return files.map(([name]) => join(dir, name));
}
