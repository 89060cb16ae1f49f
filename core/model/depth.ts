/**
 * How deep a run searches (`--depth`, CONFORMANCE_DEPTH): one oracle, three budgets. A pull request wants a verdict in
 * well under a minute (quick), a nightly job the deepest search a night allows (deep); standard is the run as it always
 * was. The depth is resolved once with the configuration (core/run/config.ts), travels in the run context with the
 * target's settings, and every check reads it as `ctx.depth`: the property runner (core/run/property.ts) scales the
 * cases every property draws (`drawsAt`) and trims its examples (`examplesAt`); a check that quick cannot judge soundly says so with
 * `beyondDepth` (core/run/check.ts): "not exercised (quick)", never a bare pass. The figures are data
 * (depths.json), which --help prints too.
 */

import depths from './depths.json' with { type: 'json' };

export const DEPTHS = ['quick', 'standard', 'deep'] as const;
export type DepthName = (typeof DEPTHS)[number];

/** What a depth allows, as data (it travels in the run context). */
export interface DepthProfile {
  name: DepthName;
  /**
   * The factor on the cases a property draws from the seed beyond its examples (`drawsAt`), its count at standard
   * being its own or FC_NUM_RUNS: quick few (at least one), deep five times as many.
   */
  drawFactor: number;
  /** How many of a property's deterministic examples it tries: every one, or the first N (quick may trim). */
  examples: number | 'all';
  /** The access matrix: each class once, sampled as today, or every spelling with every key and query shape. */
  access: 'classes' | 'sampled' | 'every';
  /**
   * The strength of the deterministic phases' covering arrays (the access matrix's query shapes, the refused requests'
   * shapes of the door checks, INP-ROBUST's classes): 1, every class once (quick); 2, every pair of two factors' values.
   */
  strength: 1 | 2;
  /**
   * The pages a walk at a smaller limit reads at most (its limit chosen to cover the set in that many): the invariant
   * a walk judges is the same at any limit below the total, so a few pages show it. Absent: the check's own bound.
   */
  walkPages?: number;
  /** Requests the search for undocumented inputs may spend on a listing. */
  discovery: number;
  /** The requests a default run (payments only, every optional input) is tuned to stay within: --help states it. */
  requestBound: number;
  /** The request budget (API_MAX_REQUESTS) when none is set: a hard cap above the bound. */
  budget: number;
  /**
   * The time budget (--max-time) when none is set, as the command writes it (`30s`): quick's verdict comes within it
   * at whatever pace the target allows, the checks it could not hold named. Absent: none.
   */
  timeBudget?: string;
  /** What the depth is for, in a few words (--help). */
  about: string;
}

export const DEPTH_PROFILES: Readonly<Record<DepthName, DepthProfile>> = Object.fromEntries(
  DEPTHS.map((name) => [name, { name, ...(depths[name] as Omit<DepthProfile, 'name'>) }]),
) as Record<DepthName, DepthProfile>;

export const DEFAULT_DEPTH: DepthName = 'standard';

export const isDepthName = (name: string): name is DepthName => (DEPTHS as readonly string[]).includes(name);

/**
 * A property's count of drawn cases at a depth, given its count at standard: at least one at quick (another seed
 * still draws another case), five times as many at deep.
 */
export function drawsAt(depth: Pick<DepthProfile, 'drawFactor'>, standard: number): number {
  if (standard <= 0) return 0;
  return Math.max(1, Math.round(standard * depth.drawFactor));
}

/**
 * The deterministic examples a property tries at a depth: every one, or the first `depth.examples` — and, where the
 * examples meet several places (`placeOf`: a listing of the run, each the code path of a mode or a merchant), the first
 * example of each place the first ones miss, so that a trimmed phase still meets every place once.
 */
export function examplesAt<T>(
  depth: Pick<DepthProfile, 'examples'>,
  examples: readonly T[],
  placeOf?: (example: T) => unknown,
): T[] {
  if (depth.examples === 'all') return [...examples];
  const first = examples.slice(0, depth.examples);
  if (!placeOf) return first;
  const met = new Set(first.map(placeOf));
  const more = examples.slice(depth.examples).filter((e) => !met.has(placeOf(e)) && !!met.add(placeOf(e)));
  return [...first, ...more];
}

/**
 * The depth a declared collection is searched at in a run of `depth`: one below (standard: quick's budgets, deep:
 * standard's; quick stays quick). Every rule is still judged on it, its access matrix every value of every factor
 * once at least, its coverage phase every class; payments, the spec's collection, gets the run's depth.
 */
export const depthBelow = (depth: DepthProfile): DepthProfile =>
  DEPTH_PROFILES[DEPTHS[Math.max(0, DEPTHS.indexOf(depth.name) - 1)] as DepthName];
