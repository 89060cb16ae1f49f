/**
 * The fidelity diff of two or more targets as one page (fidelity.html), in the look of the rule matrix's page
 * (reporters/html.ts) and of the Autobahn test suite's report: rows are rules and, under each, its cases; columns are
 * the targets, A the reference; a cell is the target's answer judged — its status, green where every check of the
 * suite holds, red where one is violated, orange where it differs from A's answer, grey without an answer, white with
 * the reason where the case was skipped — linked to the evidence (the request and every judged aspect) further down.
 * The headline is how many cases the targets answered alike; a calibration's page adds its settings and its gaps.
 */
import { RULES } from '../core/model/rules.ts';
import { cellClass, esc, legend, page } from '../reporters/html.ts';
import type { Result, RuleRow } from './compare.ts';
import type { Aspect } from './judge.ts';

export interface SideShown {
  name: string;
  file: string;
  baseURL: string;
  total: number;
  sent: number;
}

interface FidelityPage {
  seed: number;
  runs: number;
  sides: SideShown[];
  summary: string;
  differences: string;
  rules: RuleRow[];
  results: Result[];
  /** Sections before the grid (a calibration's settings and gaps, a drift check's cases): headings and rows. */
  sections?: Array<{ title: string; lines: string[] }>;
}

/** A target's answers to a case: A and B, then the others. */
const answersOf = (r: Result): Aspect[][] => r.answers ?? [r.a ?? [], r.b ?? []];

/** A cell's state and text: skipped (with why), no answer, violated, differs (from A), or ok. */
function cellOf(r: Result, i: number): { state: string; text: string } {
  if (r.skipped) return { state: 'skipped', text: `skipped: ${r.skipped}` };
  const mine = answersOf(r)[i] ?? [];
  const status = mine.find((x) => x.aspect === 'status');
  if (!status || status.key === 'no answer') return { state: 'no answer', text: 'no answer' };
  const differs = i > 0 && r.differences.some((d) => (d.target ?? 'B') === String.fromCharCode(65 + i));
  const state = mine.some((x) => x.violated) ? 'violated' : differs ? 'differs' : 'ok';
  return { state, text: `${status.code ?? status.key}${differs ? ' ≠A' : ''}` };
}

const anchor = (r: Result, i: number) => `${r.case.id}-${String.fromCharCode(65 + i)}`;

/** The grid's rows: each rule (how many of its cases each target answers otherwise than A), then its cases. */
function gridRows(p: FidelityPage): string[] {
  const rows: string[] = [];
  for (const rule of p.rules) {
    const level = RULES.find((r) => r.id === rule.rule)?.level ?? '';
    const mine = p.results.filter((r) => r.case.rule === rule.rule);
    const summaryCells = p.sides
      .map((s, i) => {
        if (i === 0) return `<td class="cell">${esc(rule.compared)} compared</td>`;
        const n = mine.filter((r) => r.differences.some((d) => (d.target ?? 'B') === s.name)).length;
        return `<td class="cell ${cellClass(n > 0 ? 'differs' : 'alike')}">${n > 0 ? `${n} differ` : 'alike'}</td>`;
      })
      .join('');
    rows.push(
      `<tr class="rule"><td>${esc(rule.rule)} <span class="facts">${esc(level)}</span></td>${summaryCells}<td></td></tr>`,
    );
    for (const r of mine) {
      const cells = p.sides
        .map((_, i) => {
          const c = cellOf(r, i);
          const link = r.skipped ? esc(c.text) : `<a href="#${anchor(r, i)}">${esc(c.text)}</a>`;
          return `<td class="cell ${cellClass(c.state)}">${link}</td>`;
        })
        .join('');
      const kind = r.kind ? `${r.kind}${r.breaks?.length ? `: ${r.breaks.join('; ')}` : ''}` : '';
      rows.push(
        `<tr><td class="case">${esc(r.case.id)} ${esc(r.case.label)}</td>${cells}<td class="facts">${esc(kind)}</td></tr>`,
      );
    }
  }
  return rows;
}

/** The evidence of every case compared, target by target. */
function evidenceOf(p: FidelityPage): string[] {
  return p.results
    .filter((r) => !r.skipped)
    .flatMap((r) =>
      answersOf(r).map((aspects, i) => {
        const lines = aspects.map((x) => `<dt>${esc(x.aspect)} (${esc(x.rule)})</dt><dd>${esc(x.shown)}</dd>`).join('');
        const diffs = r.differences.filter((d) => i > 0 && (d.target ?? 'B') === String.fromCharCode(65 + i));
        const vs = diffs
          .map((d) => `<dt>differs from A</dt><dd>${esc(`${d.aspect}: A ${d.a}, here ${d.b}`)}</dd>`)
          .join('');
        const kind =
          i > 0 && r.kind ? `<dt>the difference</dt><dd>${esc([r.kind, ...(r.breaks ?? [])].join('; '))}</dd>` : '';
        return (
          `<section class="evidence" id="${anchor(r, i)}"><h3>${esc(r.case.id)} on ${esc(String.fromCharCode(65 + i))}: ${esc(r.case.label)}</h3>` +
          `<dl><dt>rule</dt><dd>${esc(r.case.rule)}</dd><dt>request</dt><dd><pre>${esc(r.requests?.[i] ?? '—')}</pre></dd>${lines}${vs}${kind}</dl></section>`
        );
      }),
    );
}

export function fidelityHtml(p: FidelityPage): string {
  const alike = p.results.filter((r) => !r.skipped && r.differences.length === 0).length;
  const compared = p.results.filter((r) => !r.skipped).length;
  const others = p.sides
    .slice(1)
    .map((s) => s.name)
    .join(', ');
  const head = `Fidelity of ${others} to A: ${alike}/${compared} cases answered alike`;
  const columns = p.sides.map((s) => `<th>${esc(s.name)}${s.name === 'A' ? ' (reference)' : ''}</th>`).join('');
  const skipped = p.results.filter((r) => r.skipped);
  const sections = (p.sections ?? []).flatMap((s) => [
    `<h2>${esc(s.title)}</h2>`,
    `<ul>${s.lines.map((l) => `<li>${esc(l)}</li>`).join('')}</ul>`,
  ]);
  const body = [
    '<h2>Targets</h2>',
    `<ul>${p.sides.map((s) => `<li>${esc(`${s.name} = ${s.file} (${s.baseURL}): total ${s.total}, ${s.sent} requests`)}</li>`).join('')}</ul>`,
    `<p class="facts">${esc(`${p.summary}; ${p.differences}; seed ${p.seed}, runs ${p.runs}: rerun with --seed ${p.seed} --runs ${p.runs}`)}</p>`,
    ...sections,
    '<h2>Rules and cases by target</h2>',
    legend(['ok', 'violated', 'differs', 'no answer', 'skipped']),
    `<table class="grid"><thead><tr><th>rule / case</th>${columns}<th>the difference</th></tr></thead><tbody>`,
    ...gridRows(p),
    '</tbody></table>',
    ...(skipped.length
      ? [
          '<h2>Skipped cases</h2>',
          `<ul>${skipped.map((r) => `<li>${esc(`${r.case.id} ${r.case.label}: ${r.skipped}`)}</li>`).join('')}</ul>`,
        ]
      : []),
    '<h2>Evidence, case by case and target by target</h2>',
    ...evidenceOf(p),
  ].join('\n');
  return page({
    title: `${head} (${p.differences})`,
    outcome: alike === compared ? 'conformant' : 'neutral',
    headline: head,
    sub: p.differences,
    body,
  });
}
