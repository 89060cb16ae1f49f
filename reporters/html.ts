/**
 * HTML pages that open from disk (one self-contained file: no script, no font, no request of any kind), in the manner
 * of the Autobahn test suite's report: a grid whose rows are rules and their cases, whose columns are targets, whose
 * cells are verdicts in colour, each linked to its evidence further down. The headline is the outcome. The rule matrix
 * of a run is reports/conformance.html (`conformanceHtml`); the fidelity diff of several targets uses the same look
 * (scripts/fidelity/html.ts). Every text is escaped and redacted.
 */

import { disposition, ofCheck } from '../core/model/disposition.ts';
import { describeInputs, describeTarget } from '../core/model/run-context.ts';
import { redact } from '../core/model/secrets.ts';
import { type CheckRecord, ruleVerdictOf } from '../core/model/verdict.ts';
import { collectionOf } from './collections-grid.ts';
import type { Summary } from './summary.ts';
import {
  baselineLines,
  depthPhrase,
  headline,
  methodsOf,
  NO_TARGET,
  requestLinesOf,
  requestLogOf,
  verdictLabel,
} from './summary-text.ts';

/** Text safe in HTML content and attributes. */
export const esc = (text: string | number): string =>
  String(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

/** The colour class of a verdict (or of any cell state of the fidelity page). */
export const cellClass = (verdict: string): string => `v-${verdict.replace(/[^a-z]+/gi, '-').toLowerCase()}`;

const STYLE = `
body { font-family: system-ui, -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; margin: 0; color: #222; background: #fff; }
header.outcome { padding: 18px 24px; color: #fff; }
header.outcome h1 { margin: 0; font-size: 26px; }
header.outcome p { margin: 6px 0 0; font-size: 14px; opacity: 0.95; }
header.outcome p.target { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 13px; }
header.conformant { background: #1b7f2a; } header.nonconformant { background: #c62828; }
header.inconclusive { background: #b26a00; } header.bad-configuration { background: #555; } header.neutral { background: #2f4f6f; }
main { padding: 12px 24px 40px; }
h2 { font-size: 18px; margin: 28px 0 8px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
ul.decided { margin: 8px 0; } .facts { color: #555; font-size: 13px; }
table.grid { border-collapse: collapse; font-size: 13px; }
table.grid th, table.grid td { border: 1px solid #ccc; padding: 3px 8px; text-align: left; vertical-align: top; }
table.grid th { background: #f0f0f0; }
table.grid tr.rule td { background: #f7f7f7; font-weight: 600; }
table.grid td.case { padding-left: 22px; font-weight: normal; max-width: 680px; }
td.cell { text-align: center !important; white-space: nowrap; font-weight: 600; }
td.cell a { color: inherit; text-decoration: none; display: block; }
.v-pass, .v-ok, .v-alike { background: #0a0 !important; color: #fff; }
.v-fail, .v-violated, .v-new-failure { background: #e00 !important; color: #fff; }
.v-known { background: #8e44ad !important; color: #fff; }
.v-advisory, .v-differs { background: #f90 !important; color: #000; }
.v-inconclusive, .v-no-answer { background: #999 !important; color: #fff; }
.v-not-exercised { background: #ddd !important; color: #333; }
.v-not-run, .v-skipped { background: #fff !important; color: #888; }
.legend span { display: inline-block; padding: 2px 8px; margin: 0 4px 4px 0; font-size: 12px; border: 1px solid #ccc; }
section.evidence { border: 1px solid #ddd; margin: 10px 0; padding: 8px 12px; }
section.evidence h3 { font-size: 14px; margin: 0 0 6px; }
section.evidence dl { display: grid; grid-template-columns: max-content 1fr; gap: 3px 12px; margin: 0; font-size: 13px; }
section.evidence dt { color: #555; } section.evidence dd { margin: 0; }
pre { white-space: pre-wrap; word-break: break-all; background: #f6f6f6; padding: 6px; margin: 0; font-size: 12px; }
:target { outline: 3px solid #1565c0; }
`;

/** A whole page: the outcome class colours the headline band; `target` (what was checked) is the band's last line. */
export function page(opts: {
  title: string;
  outcome: string;
  headline: string;
  sub?: string;
  target?: string;
  body: string;
}): string {
  return redact(
    [
      '<!DOCTYPE html>',
      '<html lang="en"><head><meta charset="utf-8">',
      // No request may leave the page: it is read from disk, offline, and holds evidence.
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
      '<meta name="viewport" content="width=device-width, initial-scale=1">',
      `<title>${esc(opts.title)}</title><style>${STYLE}</style></head><body>`,
      `<header class="outcome ${cellClass(opts.outcome).slice(2)}" id="outcome"><h1>${esc(opts.headline)}</h1>${opts.sub ? `<p>${esc(opts.sub)}</p>` : ''}${opts.target ? `<p class="target">${esc(opts.target)}</p>` : ''}</header>`,
      `<main>${opts.body}</main></body></html>`,
      '',
    ].join('\n'),
  );
}

/** The legend of the cell colours. */
export const legend = (states: string[]): string =>
  `<p class="legend">${states.map((s) => `<span class="${cellClass(s)}">${esc(s)}</span>`).join('')}</p>`;

const anchor = (i: number) => `check-${i + 1}`;

/**
 * The grid of rules × collections (a run given other collections than payments): each cell the rule's verdict on that
 * collection, linked to its first check there; "—" where the rule has no check on it.
 */
function collectionsGrid(s: Summary, index: Map<CheckRecord, number>): string[] {
  const names = s.collections ?? [];
  if (names.length === 0) return [];
  const cell = (rule: string, name: string) => {
    const c = s.rules.find((r) => r.id === rule)?.collections?.[name];
    if (!c) return '<td class="cell">—</td>';
    const first = s.checks.find((x) => x.rule === rule && collectionOf(x) === name);
    const text = `${esc(c.verdict)} <span class="facts">${esc(c.requests)}</span>`;
    const inner = first ? `<a href="#${anchor(index.get(first) as number)}">${text}</a>` : text;
    return `<td class="cell ${cellClass(c.verdict)}">${inner}</td>`;
  };
  return [
    '<h2>Rules × collections</h2>',
    '<p class="facts">Each cell: the rule\'s verdict on that collection and the requests its checks sent, linked to its first check; "—": no check of the rule there.</p>',
    `<table class="grid"><thead><tr><th>rule</th>${names.map((n) => `<th>${esc(n)}</th>`).join('')}</tr></thead><tbody>`,
    ...s.rules.map((r) => `<tr><td>${esc(r.id)}</td>${names.map((n) => cell(r.id, n)).join('')}</tr>`),
    '</tbody></table>',
  ];
}

/** What a check's verdict does to the run, in words (its disposition, core/model/disposition.ts). */
const DOES: Record<ReturnType<typeof disposition>, string> = {
  fail: 'fails the run',
  known: 'a known deviation: does not fail the run',
  advisory: 'an advisory finding: does not fail the run (it does with CONFORMANCE_STRICT=1)',
  none: '',
};

function evidence(c: CheckRecord, i: number, strict: boolean): string {
  const row = (k: string, v: string | undefined, pre = false) =>
    v === undefined || v === '' ? '' : `<dt>${esc(k)}</dt><dd>${pre ? `<pre>${esc(v)}</pre>` : esc(v)}</dd>`;
  const does = DOES[disposition(ofCheck(c), { strict })];
  const found = c.known
    ? `known deviation (${c.known.reason}, until ${c.known.until}); the check found: ${c.verdict}`
    : c.verdict;
  const verdict = does && !c.known ? `${found} (${does})` : found;
  return [
    `<section class="evidence" id="${anchor(i)}"><h3><span class="${cellClass(ruleVerdictOf(c))}">&nbsp;${esc(ruleVerdictOf(c))}&nbsp;</span> ${esc(c.check)}</h3><dl>`,
    row('verdict', verdict),
    row('why', c.reason),
    row('expected', c.expected),
    row('received', c.received),
    ...(c.derivedFrom ?? []).map((d) => row(`may follow from ${d.rule}`, d.why)),
    row('counterexample', c.counterexample),
    row('replay', c.replay, true),
    row('reproduce', c.reproduction.join('\n'), true),
    c.requestLines
      ? `<dt>requests</dt><dd>${esc(c.requests)}: <a href="${esc(requestLogOf(c))}">${esc(requestLinesOf(c) as string)}</a> (and <a href="${esc(requestLogOf(c).replace(/\.ndjson$/, '.har'))}">requests.har</a>)</dd>`
      : row('requests', String(c.requests)),
    row('notes', c.notes.join('; ')),
    '</dl></section>',
  ].join('');
}

/** The rule matrix of a run as one page: reports/conformance.html, its target in the first screen. */
export function conformanceHtml(s: Summary): string {
  const index = new Map(s.checks.map((c, i) => [c, i]));
  const rows: string[] = [];
  for (const r of s.rules) {
    const checks = s.checks.filter((c) => c.rule === r.id);
    const link = checks.length > 0 ? `#${anchor(index.get(checks[0] as CheckRecord) as number)}` : '';
    const label = verdictLabel(r, s.depth);
    const cell = link ? `<a href="${link}">${esc(label)}</a>` : esc(label);
    rows.push(
      `<tr class="rule" id="rule-${esc(r.id)}"><td>${esc(r.id)} <span class="facts">${esc(r.level)} · ${esc(r.section)}</span></td>` +
        `<td class="cell ${cellClass(r.verdict)}">${cell}</td><td>${esc(r.requests)}</td><td>${esc(r.evidence)}${r.mayFollowFrom ? esc(` (may follow from ${r.mayFollowFrom.join(', ')})`) : ''}</td></tr>`,
    );
    for (const c of checks) {
      const v = ruleVerdictOf(c);
      const i = index.get(c) as number;
      rows.push(
        `<tr><td class="case">${esc(c.check)}</td><td class="cell ${cellClass(v)}"><a href="#${anchor(i)}">${esc(v)}</a></td>` +
          `<td>${esc(c.requests)}</td><td>${esc(requestLinesOf(c) ?? '')}</td></tr>`,
      );
    }
  }
  const deviations = baselineLines(s.deviations, true);
  const facts = [
    ...(s.target ? [describeInputs(s.target)] : []),
    `seed ${s.seed ?? 'none'}${s.seed !== null ? ` (rerun with FC_SEED=${s.seed})` : ''}`,
    // A conformance.json of an older version may lack a count: a report says 0, never "undefined".
    `${s.requests ?? 0} requests (${methodsOf(s)}) in ${s.durationSeconds ?? 0} s${s.requests ? ' (every one in requests.ndjson and requests.har)' : ''}`,
    `run status ${s.status}`,
    ...(s.shard ? [`shard ${s.shard.current} of ${s.shard.total}`] : []),
  ];
  const body = [
    '<h2>What decided it</h2>',
    `<ul class="decided">${s.outcome.decidedBy.map((l) => `<li>${esc(l)}</li>`).join('')}</ul>`,
    `<p class="facts">${facts.map(esc).join(' · ')}</p>`,
    ...(deviations.length
      ? [
          `<h2>Known deviations (baseline ${esc(s.deviations?.file ?? '')})</h2>`,
          `<ul>${deviations.map((l) => `<li>${esc(l)}</li>`).join('')}</ul>`,
        ]
      : []),
    // A run refused at its set-up judged no rule: no grid of rules that did not run.
    ...(s.rules.length
      ? [
          '<h2>Rule matrix</h2>',
          legend(['pass', 'fail', 'known', 'advisory', 'inconclusive', 'not exercised', 'not run']),
          '<table class="grid"><thead><tr><th>rule / check</th><th>this run</th><th>requests</th><th>evidence</th></tr></thead><tbody>',
          ...rows,
          '</tbody></table>',
          ...collectionsGrid(s, index),
          '<h2>Evidence, check by check</h2>',
          ...s.checks.map((c, i) => evidence(c, i, s.strict)),
        ]
      : []),
  ].join('\n');
  const [first, ...rest] = headline(s).split(': ');
  return page({
    title: `Payment API conformance: ${headline(s)}`,
    outcome: s.outcome.result,
    headline: `Payment API conformance: ${first}`,
    sub: rest.join(': '),
    target: `Target: ${s.target ? describeTarget(s.target) : NO_TARGET}; ${depthPhrase(s)}`,
    body,
  });
}
