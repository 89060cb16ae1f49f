/**
 * The rule matrix as a grid of rules × collections, for a run given other collections than payments (`--collections`):
 * each rule's verdict on each collection, from the records of its checks there (a record names its collection;
 * absent: payments). A rule with no check on a collection (AUTH-STATUS and CFG-KEYS are about no listing, a rule the
 * collections file leaves nothing to judge) shows "—". Without other collections there is no grid, and every report
 * reads as before. The console, conformance.md, conformance.json (each row's `collections`) and conformance.html show
 * it; JUnit has a test suite per collection.
 */
import { PAYMENTS_NAME } from '../core/model/collection.ts';
import type { CheckRecord, RuleVerdict } from '../core/model/verdict.ts';

/** One rule on one collection: its checks' most telling verdict, how many checks and requests. */
export interface CollectionCell {
  verdict: RuleVerdict;
  checks: number;
  requests: number;
}

/** A rule's row as the grid reads it: its id and its cells (summary.ts RuleRow). */
interface GridRow {
  id: string;
  collections?: Record<string, CollectionCell>;
}

/** The collection a record checks: its own, or payments. */
export const collectionOf = (r: Pick<CheckRecord, 'collection'>): string => r.collection ?? PAYMENTS_NAME;

/** The collections of a run's records, payments first; [] when every record is the payments' (no grid). */
export function collectionsOf(records: readonly Pick<CheckRecord, 'collection'>[]): string[] {
  const others = [...new Set(records.flatMap((r) => (r.collection ? [r.collection] : [])))];
  return others.length === 0 ? [] : [PAYMENTS_NAME, ...others];
}

/** Each collection's cell of a rule, from the checks of that rule (its row's verdict is the most telling of them). */
export function cellsOf(
  checks: readonly CheckRecord[],
  collections: readonly string[],
  row: (checks: readonly CheckRecord[]) => CollectionCell,
): Record<string, CollectionCell> {
  const cells: Record<string, CollectionCell> = {};
  for (const name of collections) {
    const own = checks.filter((c) => collectionOf(c) === name);
    if (own.length === 0) continue;
    const { verdict, checks: n, requests } = row(own);
    cells[name] = { verdict, checks: n, requests };
  }
  return cells;
}

const cellText = (cell: CollectionCell | undefined) => (cell ? `${cell.verdict} ${cell.requests}` : '—');

/** The grid for the console: a column per collection, each cell the verdict and the requests its checks sent. */
export function gridLines(rows: readonly GridRow[], collections: readonly string[]): string[] {
  if (collections.length === 0) return [];
  const w = Math.max(4, ...rows.map((r) => r.id.length));
  const cw = collections.map((c) => Math.max(c.length, ...rows.map((r) => cellText(r.collections?.[c]).length)));
  const line = (first: string, cells: string[]) =>
    `  ${first.padEnd(w)}  ${cells.map((t, i) => t.padEnd(cw[i] as number)).join('  ')}`.trimEnd();
  return [
    '',
    'Rules × collections (verdict and requests on each; — no check of the rule there):',
    line('rule', [...collections]),
    ...rows.map((r) =>
      line(
        r.id,
        collections.map((c) => cellText(r.collections?.[c])),
      ),
    ),
  ];
}

/** The grid as a markdown table. */
export function gridMarkdown(rows: readonly GridRow[], collections: readonly string[]): string[] {
  if (collections.length === 0) return [];
  return [
    '## Rules × collections',
    '',
    'Each cell: the rule\'s verdict on that collection and the requests its checks sent; "—": no check of the rule there.',
    '',
    `| rule | ${collections.join(' | ')} |`,
    `|---|${collections.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.id} | ${collections.map((c) => cellText(r.collections?.[c])).join(' | ')} |`),
    '',
  ];
}
