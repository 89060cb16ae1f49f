/**
 * Rendering a fidelity report: the console text, reports/fidelity.md and reports/fidelity.json.
 * Everything written passes through `redact` once more, whatever its origin.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RULES } from '../../fixtures/rules.ts';
import { redact } from '../../fixtures/secrets.ts';
import type { FidelityReport, RuleSummary } from './run.ts';
import type { SuiteComparison } from './suite.ts';

export type FullReport = FidelityReport & { suite?: SuiteComparison };

const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

function table(rows: string[][], max: number[] = []): string[] {
  const cells = rows.map((r) => r.map((c, i) => cut(c, max[i] ?? 200)));
  const widths = cells[0]?.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length))) ?? [];
  return cells.map((r) =>
    `  ${r.map((c, i) => (i < r.length - 1 ? c.padEnd(widths[i] ?? 0) : c)).join('  ')}`.trimEnd(),
  );
}

function header(r: FidelityReport): string[] {
  const { A, B } = r.targets;
  return [
    `A = ${A.file} (${A.baseURL}): sandbox listing ${A.probe}, ${A.requests} GET requests`,
    `B = ${B.file} (${B.baseURL}): sandbox listing ${B.probe}, ${B.requests} GET requests`,
    `seed ${r.seed}, ${r.summary.cases} cases (${r.summary.compared} compared, ${r.summary.skipped} skipped${r.summary.notCompared ? `, ${r.summary.notCompared} not sent` : ''})`,
  ];
}

export function renderText(r: FullReport): string {
  const lines: string[] = ['', 'Fidelity: does B reproduce the shape of A?', ...header(r), ''];
  const byRule = RULES.map((rule) => ({ rule, diffs: r.differences.filter((d) => d.rule === rule.id) })).filter(
    (x) => x.diffs.length > 0,
  );
  if (byRule.length === 0) lines.push('Differences: none', '');
  else {
    lines.push('Differences, rule by rule');
    for (const { rule, diffs } of byRule) {
      const n = new Set(diffs.map((d) => d.case)).size;
      lines.push('', `${rule.id} (${rule.section}): ${n === 1 ? '1 case differs' : `${n} cases differ`}`);
      lines.push(
        ...table(
          [['case', 'aspect', 'A', 'B'], ...diffs.map((d) => [`${d.case} ${d.label}`, d.aspect, d.a, d.b])],
          [48, 16, 60, 60],
        ),
      );
    }
    lines.push('');
  }
  const skipped = r.cases.filter((c) => c.skipped);
  if (skipped.length > 0) {
    lines.push('Skipped cases');
    lines.push(
      ...table(
        skipped.map((c) => [`${c.id} ${c.label}`, c.rule, c.skipped ?? '']),
        [48, 22, 100],
      ),
      '',
    );
  }
  lines.push('Choices where the spec allows several answers');
  lines.push(
    ...table([['choice', 'A', 'B'], ...r.choices.map((c) => [`${c.choice} (${c.rule})`, c.a, c.b])], [44, 60, 60]),
    '',
  );
  lines.push('Summary per rule');
  lines.push(...table(r.rules.map((s) => [s.id, s.text, ruleNote(s, r.suite)])));
  if (r.suite) lines.push('', ...suiteText(r.suite));
  lines.push('', r.fidelity, '');
  return redact(lines.join('\n'));
}

function ruleNote(s: RuleSummary, suite?: SuiteComparison): string {
  if (s.compared === 0 && suite) {
    const a = suite.A.verdicts[s.id] ?? '(none)';
    const b = suite.B.verdicts[s.id] ?? '(none)';
    return `suite verdicts: A ${a}, B ${b}`;
  }
  if (s.compared === 0) return s.note ?? '';
  const skipped = s.skipped ? `, ${s.skipped} skipped${s.needs.length ? ` (needs ${s.needs.join(', ')})` : ''}` : '';
  return `${s.compared} case${s.compared === 1 ? '' : 's'} compared${skipped}`;
}

function suiteText(s: SuiteComparison): string[] {
  const lines = ['Conformance suite verdicts (--suite)'];
  for (const run of [s.A, s.B]) lines.push(`  ${run.side}: ${run.summary}`);
  if (s.differences.length === 0) lines.push('  verdicts: identical for every rule');
  else lines.push(...table([['rule', 'verdict A', 'verdict B'], ...s.differences.map((d) => [d.rule, d.a, d.b])]));
  return lines;
}

export function renderMarkdown(r: FullReport): string {
  const esc = (t: string) => t.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const lines = [
    '# Fidelity report',
    '',
    ...header(r).map((l) => `- ${esc(l)}`),
    '',
    `**${r.fidelity}**`,
    '',
    '## Differences',
    '',
  ];
  if (r.differences.length === 0) lines.push('None.', '');
  else {
    lines.push('| rule | case | aspect | A | B |', '|---|---|---|---|---|');
    for (const rule of RULES) {
      for (const d of r.differences.filter((x) => x.rule === rule.id)) {
        lines.push(`| ${d.rule} | ${esc(`${d.case} ${d.label}`)} | ${esc(d.aspect)} | ${esc(d.a)} | ${esc(d.b)} |`);
      }
    }
    lines.push('');
  }
  lines.push('## Choices where the spec allows several answers', '', '| choice | rule | A | B |', '|---|---|---|---|');
  for (const c of r.choices) lines.push(`| ${esc(c.choice)} | ${c.rule} | ${esc(c.a)} | ${esc(c.b)} |`);
  lines.push('', '## Summary per rule', '', '| rule | level | verdict | note |', '|---|---|---|---|');
  for (const s of r.rules) lines.push(`| ${s.id} | ${s.level} | ${esc(s.text)} | ${esc(ruleNote(s, r.suite))} |`);
  lines.push(
    '',
    '## Cases',
    '',
    '| case | rule | query | result | request A | request B |',
    '|---|---|---|---|---|---|',
  );
  for (const c of r.cases) {
    const result = c.skipped
      ? `skipped: ${c.skipped}`
      : c.identical
        ? 'identical'
        : `${c.differences.length} difference(s)`;
    lines.push(
      `| ${c.id} | ${c.rule} | ${esc(c.label)} | ${esc(result)} | ${esc(c.a?.request ?? '')} | ${esc(c.b?.request ?? '')} |`,
    );
  }
  if (r.suite) {
    lines.push(
      '',
      '## Conformance suite verdicts',
      '',
      ...[r.suite.A, r.suite.B].map((x) => `- ${x.side}: ${esc(x.summary)}`),
      '',
    );
    lines.push(
      '| rule | verdict A | verdict B |',
      '|---|---|---|',
      ...r.suite.differences.map((d) => `| ${d.rule} | ${d.a} | ${d.b} |`),
    );
  }
  return redact(`${lines.join('\n')}\n`);
}

/** Writes <dir>/fidelity.json and <dir>/fidelity.md; returns their paths. */
export function writeReports(r: FullReport, dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  const json = join(dir, 'fidelity.json');
  const md = join(dir, 'fidelity.md');
  writeFileSync(json, redact(`${JSON.stringify(r, null, 2)}\n`));
  writeFileSync(md, renderMarkdown(r));
  return [json, md];
}
