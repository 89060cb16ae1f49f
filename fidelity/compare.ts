/**
 * The comparison of a fidelity run: every target's answer to every case, each other target's answer compared with
 * A's, each difference said to be a legal choice or a rule broken, and the per-rule table of where they differ.
 */
import { RULES, type RuleId } from '../core/model/rules.ts';
import type { Case } from './cases.ts';
import { type Aspect, compare, type Difference, differenceKind } from './judge.ts';
import type { Answer } from './targets.ts';

export type Result = { case: Case; skipped?: string; requests?: string[]; a?: Aspect[]; b?: Aspect[] } & {
  /** Every target's judged answer, A first (a and b are the first two). */
  answers?: Aspect[][];
  differences: Difference[];
  /** A legal choice (every answer within the rules) or a rule broken, and by whom; absent when answered alike. */
  kind?: 'legal choice' | 'breaks a rule';
  breaks?: string[];
};

/**
 * Every case's result from the targets' answers (A first; a string is why the case cannot be asked of that target):
 * skipped where `skip` says why (a target lacks what it needs), else each other target compared with A.
 */
export function compareAnswers(
  cases: readonly Case[],
  names: readonly string[],
  answers: ReadonlyArray<ReadonlyMap<string, Answer | string>>,
  skip: (c: Case) => string | undefined = () => undefined,
): Result[] {
  return cases.map((c): Result => {
    const why = skip(c);
    if (why) return { case: c, skipped: why, differences: [] };
    const got = answers.map((m) => m.get(c.id));
    const cannot = got.find((x) => typeof x === 'string');
    if (cannot !== undefined) return { case: c, skipped: cannot as string, differences: [] };
    if (got.some((x) => x === undefined)) return { case: c, skipped: 'not asked', differences: [] };
    const all = got as Answer[];
    const [a, b] = all as [Answer, Answer];
    const many = names.length > 2;
    const differences = all
      .slice(1)
      .flatMap((x, i) => compare(a.aspects, x.aspects).map((d) => (many ? { ...d, target: names[i + 1] } : d)));
    const judged = differenceKind(
      all.map((x, i) => ({ name: names[i] as string, aspects: x.aspects })),
      differences.length > 0,
    );
    return {
      case: c,
      requests: all.map((x) => x.request),
      a: a.aspects,
      b: b.aspects,
      ...(many ? { answers: all.map((x) => x.aspects) } : {}),
      differences,
      ...(judged ?? {}),
    };
  });
}

/** How many cases were compared, answered alike, and of the others how many are legal choices or break a rule. */
export function tally(results: readonly Result[]) {
  const compared = results.filter((r) => !r.skipped);
  const alike = compared.filter((r) => r.differences.length === 0).length;
  const legal = compared.filter((r) => r.kind === 'legal choice').length;
  return {
    compared: compared.length,
    alike,
    legal,
    broken: compared.length - alike - legal,
    skipped: results.length - compared.length,
  };
}

/** The run's last line, in the form scripts read: `fidelity: N/M cases answered alike (K skipped)`. */
export function summaryLine(results: readonly Result[]): string {
  const t = tally(results);
  return `fidelity: ${t.alike}/${t.compared} cases answered alike (${t.skipped} skipped)`;
}

/** What the differences are, in one line: legal choices, and the rules broken. */
export function differencesLine(results: readonly Result[]): string {
  const t = tally(results);
  if (t.alike === t.compared) return 'no difference';
  const who = [...new Set(results.flatMap((r) => r.breaks ?? []))];
  return `${t.compared - t.alike} differ: ${t.legal} legal choice(s) (both answers within the rules), ${t.broken} where an answer breaks a rule${who.length ? ` (${who.join('; ')})` : ''}`;
}

export type RuleRow = { rule: RuleId; compared: number; differ: number; skipped: number; first: string };

const informs = (r: Result, id: RuleId) =>
  r.case.rule === id || [...(r.a ?? []), ...(r.b ?? []), ...(r.answers ?? []).flat()].some((x) => x.rule === id);
/** Per rule: the cases that inform it (status or an aspect), how many differ or were skipped, the first difference. */
export function ruleTable(results: readonly Result[]): RuleRow[] {
  return RULES.flatMap(({ id }) => {
    const mine = results.filter((r) => informs(r, id));
    const differing = mine.filter((r) => r.differences.some((d) => d.rule === id));
    const skipped = mine.filter((r) => r.skipped);
    const [r, d] = [differing[0], differing[0]?.differences.find((x) => x.rule === id)];
    const first = d ? `${d.aspect}: ${d.a} vs ${d.b} (${r?.case.id} ${r?.case.label})` : (skipped[0]?.skipped ?? '');
    const row = { rule: id, compared: mine.length - skipped.length, differ: differing.length, skipped: skipped.length };
    return mine.length > 0 ? [{ ...row, first }] : [];
  });
}

/** Rows as aligned text, cells cut at `max` characters. */
export function table(cells: string[][], max = 110): string {
  const cut = (s: string) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);
  const widths = cells[0]?.map((_, i) => Math.max(...cells.map((r) => cut(r[i] ?? '').length))) ?? [];
  return cells.map((r) => `  ${r.map((c, i) => cut(c).padEnd(widths[i] ?? 0)).join('  ')}`.trimEnd()).join('\n');
}
