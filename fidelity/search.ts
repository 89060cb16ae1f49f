/**
 * The search for the mock's setting closest to a reference, by cases and without a request to the reference: the mock
 * is learnt first — the cases asked of it under each single variant value, in-process, which says which cases each
 * value changes and how — then each axis takes the value that answers most cases like the reference (axes change
 * different cases, so they are chosen one by one), and a descent over the axes that still matter checks the choice
 * together (values that act only in combination: `invalid=422` with `over-limit=reject`). A case counts first by its
 * judged aspects (answered alike or not), then by its features (the exact status, media type, headers, body shape,
 * envelope fields, types and order); a tie keeps the default.
 */
import { VARIANT_DIMENSIONS } from '../mock/index.ts';
import type { Case } from './cases.ts';
import { sharedFeatures } from './features.ts';
import { compare } from './judge.ts';
import { type Choice, type MockRun, runMock } from './mock-runs.ts';
import type { Answer } from './targets.ts';

/** Axes a calibration leaves as they are, and why. */
const KEPT_AXES: Readonly<Record<string, string>> = {
  data: 'the mock answers with data of its own',
};

export interface Reference {
  answers: ReadonlyMap<string, Answer | string>;
  basePath: string;
  /** Cases not compared (the reference lacks what they need). */
  skipped: ReadonlySet<string>;
}

const answered = (x: Answer | string | undefined): x is Answer => x !== undefined && typeof x !== 'string';

/** The aspects a learned shape can make alike (mock/shapes.ts): the search compares the logic without them. */
const SHAPE_ASPECTS = new Set(['error body']);
const logic = (aspects: Answer['aspects']) => aspects.filter((x) => !SHAPE_ASPECTS.has(x.aspect));

/**
 * How alike the mock answers one case: first whether the logic is alike (the exact status, every judged aspect but
 * those a shape can change), then whether it is alike as it is, then the features shared. 0 for a case not compared.
 * `loose` takes a status of the same class for the same logic: how a single value shows what it could do together
 * with another (`unknown-status=reject` answers 400 alone, 422 with `invalid=422`).
 */
function caseScore(ref: Reference, run: MockRun, id: string, loose = false) {
  const [a, m] = [ref.answers.get(id), run.answers.get(id)];
  if (ref.skipped.has(id) || !answered(a) || !answered(m)) return { same: false, alike: false, value: 0 };
  const code = loose || a.features.code === m.features.code;
  const same = code && compare(logic(a.aspects), logic(m.aspects)).length === 0;
  const alike = compare(a.aspects, m.aspects).length === 0;
  return { same, alike, value: (same ? 1e8 : 0) + (alike ? 1e4 : 0) + sharedFeatures(a.features, m.features) };
}

/** How alike a mock run answers the reference: its cases' scores, then the base path. */
export function score(ref: Reference, run: MockRun, cases: readonly Case[], loose = false) {
  let [alike, value] = [0, run.basePath === ref.basePath ? 1 : 0];
  for (const c of cases) {
    const s = caseScore(ref, run, c.id, loose);
    alike += s.alike ? 1 : 0;
    value += s.value;
  }
  return { alike, value };
}

/** Whether two answers of the mock differ (an aspect or a feature). */
function changed(x: Answer | string | undefined, y: Answer | string | undefined): boolean {
  if (!answered(x) || !answered(y)) return answered(x) !== answered(y);
  const keys = new Set([...Object.keys(x.features), ...Object.keys(y.features)]);
  return compare(x.aspects, y.aspects).length > 0 || sharedFeatures(x.features, y.features) < keys.size;
}

interface SearchResult {
  choice: Choice;
  /** The mock under the choice, and under the defaults. */
  best: MockRun;
  defaults: MockRun;
  /** Every single value's run (`axis=value`), with the cases it changes. */
  sweep: Map<string, MockRun>;
  effects: Map<string, string[]>;
  /** Axes no case shows (kept at their default), with why. */
  unseen: Record<string, string>;
  evaluations: number;
}

type Opts = Parameters<typeof runMock>[2];

/** Learns each single value: the mock's answers to the cases under it, and which cases it changes. */
async function sweepValues(cases: readonly Case[], opts: Opts, defaults: MockRun) {
  const sweep = new Map<string, MockRun>();
  const effects = new Map<string, string[]>();
  for (const d of VARIANT_DIMENSIONS) {
    if (KEPT_AXES[d.name]) continue;
    for (const v of d.values.slice(1)) {
      const run = await runMock(cases, { [d.name]: v }, opts);
      sweep.set(`${d.name}=${v}`, run);
      effects.set(
        `${d.name}=${v}`,
        cases.filter((c) => changed(defaults.answers.get(c.id), run.answers.get(c.id))).map((c) => c.id),
      );
    }
  }
  return { sweep, effects };
}

/** Each axis's value that answers most like the reference alone (loosely; a tie keeps the default). */
function greedy(ref: Reference, cases: readonly Case[], defaults: MockRun, sweep: Map<string, MockRun>): Choice {
  const choice: Choice = {};
  const base = score(ref, defaults, cases, true).value;
  for (const d of VARIANT_DIMENSIONS) {
    let [best, value] = [base, d.values[0] as string];
    for (const v of d.values.slice(1)) {
      const run = sweep.get(`${d.name}=${v}`);
      const s = run ? score(ref, run, cases, true).value : Number.NEGATIVE_INFINITY;
      if (s > best) [best, value] = [s, v];
    }
    choice[d.name] = value;
  }
  return choice;
}

/**
 * Whether a value is worth a run in place of the current one: the current run's logic differs from the reference on
 * a case the two values change, or the sweep says the value alone answers those cases more like the reference.
 */
function promising(ref: Reference, current: MockRun, single: MockRun, cases: readonly string[]): boolean {
  let gain = 0;
  for (const id of cases) {
    if (!ref.skipped.has(id) && !caseScore(ref, current, id).same) return true;
    gain += caseScore(ref, single, id, true).value - caseScore(ref, current, id, true).value;
  }
  return gain > 0;
}

/** The search (module comment); `budget` bounds the runs of the descent. */
export async function search(ref: Reference, cases: readonly Case[], opts: Opts, budget = 40): Promise<SearchResult> {
  const first = (axis: string) => VARIANT_DIMENSIONS.find((d) => d.name === axis)?.values[0];
  const defaults = await runMock(cases, {}, opts);
  const { sweep, effects } = await sweepValues(cases, opts, defaults);
  const shows = (axis: string) =>
    [...effects].some(([k, ids]) => k.startsWith(`${axis}=`) && ids.length > 0) ||
    [...sweep].some(([k, run]) => k.startsWith(`${axis}=`) && run.basePath !== defaults.basePath);
  const axes = VARIANT_DIMENSIONS.map((d) => d.name).filter((a) => !KEPT_AXES[a] && shows(a));
  let choice = greedy(ref, cases, defaults, sweep);
  let best = Object.keys(choice).some((k) => choice[k] !== VARIANT_DIMENSIONS.find((d) => d.name === k)?.values[0])
    ? await runMock(cases, choice, opts)
    : defaults;
  let [bestScore, evaluations, improved] = [score(ref, best, cases).value, 0, true];
  const single = (axis: string, v: string) => (v === first(axis) ? defaults : sweep.get(`${axis}=${v}`));
  while (improved && evaluations < budget) {
    improved = false;
    for (const axis of axes) {
      const values = VARIANT_DIMENSIONS.find((d) => d.name === axis)?.values ?? [];
      const touched = (v: string) => effects.get(`${axis}=${v}`) ?? [];
      for (const v of values) {
        if (v === choice[axis] || evaluations >= budget) continue;
        const run1 = single(axis, v);
        const ids = [...new Set([...touched(v), ...touched(choice[axis] as string)])];
        if (!run1 || !promising(ref, best, run1, ids)) continue;
        const tried = { ...choice, [axis]: v };
        const run = await runMock(cases, tried, opts);
        evaluations += 1;
        const s = score(ref, run, cases).value;
        if (s > bestScore) [choice, best, bestScore, improved] = [tried, run, s, true];
      }
    }
  }
  const unseen: Record<string, string> = { ...KEPT_AXES };
  for (const d of VARIANT_DIMENSIONS) if (!KEPT_AXES[d.name] && !shows(d.name)) unseen[d.name] = 'no case shows it';
  return { choice, best, defaults, sweep, effects, unseen, evaluations: evaluations + sweep.size + 1 };
}
