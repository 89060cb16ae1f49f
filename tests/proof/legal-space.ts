/**
 * The legal space of the self-test (npm test, stage `proof`): K combinations of the mock's variant values, drawn from
 * a seed, on which the whole suite must pass (tests/proof/playwright.config.ts, projects `legal:<seed>:<i>`).
 *
 * The draw covers: across the K combinations every axis takes each of its values at least once (when K is at least
 * the largest number of values of an axis, COVERING_MINIMUM); the rest is random. A new seed each run, printed by the judge;
 * LEGAL_SEED=<seed> replays a draw, LEGAL_COMBINATIONS=<K> changes K (12 by default).
 */
import { randomInt } from 'node:crypto';
import { mulberry32, VARIANT_DIMENSIONS, type VariantName } from '../../mock/index.ts';

/** One value per axis. */
export type Combination = Readonly<Record<VariantName, string>>;

interface Axis {
  readonly name: string;
  readonly values: readonly string[];
}

/**
 * `axis=value` pairs kept out of the draw. A value goes here only when the suite raised a false alarm on it, with a
 * comment `// FALSE ALARM, for the lead:` naming the check and its evidence; it leaves once the suite is fixed.
 */
export const EXCLUDED: readonly string[] = [];

export const DEFAULT_COMBINATIONS = 12;

/** The fewest combinations that can cover every value: the largest number of drawable values of an axis. */
export const COVERING_MINIMUM = Math.max(...VARIANT_DIMENSIONS.map((d) => drawable(d).length));

/** Draws a whole number below n, from the mock's PRNG (mulberry32): the same seed, the same draw. */
function prng(seed: number): (n: number) => number {
  const random = mulberry32(seed);
  return (n) => Math.floor(random() * n);
}

function shuffle<T>(items: T[], draw: (n: number) => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = draw(i + 1);
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}

/** The values of an axis the draw may take: all of them but the excluded ones. */
export function drawable(axis: Axis, excluded: readonly string[] = EXCLUDED): string[] {
  return axis.values.filter((v) => !excluded.includes(`${axis.name}=${v}`));
}

/**
 * K combinations from a seed. Per axis, a column of K values: each drawable value once, in random order, then random
 * values; the column shuffled. Combination i takes row i of every column, so each value appears at least once.
 */
export function drawLegalSpace(
  seed: number,
  count: number,
  axes: readonly Axis[] = VARIANT_DIMENSIONS,
  excluded: readonly string[] = EXCLUDED,
): Combination[] {
  if (!Number.isSafeInteger(count) || count < 1)
    throw new RangeError(`the draw needs 1 or more combinations, got ${count}`);
  const draw = prng(seed);
  const columns = axes.map((axis) => {
    const values = drawable(axis, excluded);
    // Fewer combinations than values (LEGAL_COMBINATIONS below COVERING_MINIMUM, for a quick run): no full cover.
    const column = shuffle([...values], draw).slice(0, count);
    while (column.length < count) column.push(values[draw(values.length)] as string);
    return shuffle(column, draw);
  });
  return Array.from(
    { length: count },
    (_, i) => Object.fromEntries(axes.map((axis, a) => [axis.name, columns[a]?.[i] as string])) as Combination,
  );
}

/** A combination as the mock's `variants` option takes it: `name=value` for every axis. */
export function variantArgs(combination: Combination): string[] {
  return Object.entries(combination).map(([name, value]) => `${name}=${value}`);
}

/** What sets a combination apart: its values other than the defaults (`name=value, …`), or `defaults`. */
export function describeCombination(variants: readonly string[]): string {
  const defaults = new Set(VARIANT_DIMENSIONS.map((d) => `${d.name}=${d.values[0]}`));
  const own = variants.filter((pair) => !defaults.has(pair));
  return own.length ? own.join(', ') : 'defaults';
}

/** The run's seed: LEGAL_SEED when set (an integer from 0 to 2^32 - 1), else a new one. */
export function legalSeed(raw: string | undefined): number {
  if (raw === undefined || raw === '') return randomInt(0, 2 ** 32);
  const seed = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(seed >= 0 && seed < 2 ** 32)) throw new RangeError(`LEGAL_SEED must be an integer from 0 to 4294967295`);
  return seed;
}

/** K: LEGAL_COMBINATIONS when set, else 12. */
export function legalCount(raw: string | undefined): number {
  if (raw === undefined || raw === '') return DEFAULT_COMBINATIONS;
  const count = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(count >= 1 && count <= 1000)) throw new RangeError('LEGAL_COMBINATIONS must be an integer from 1 to 1000');
  return count;
}

/** The seed and the index (1-based) of a `legal:<seed>:<i>` project name, or undefined for any other name. */
export function legalProject(name: string): { seed: number; index: number } | undefined {
  const m = /^legal:(\d+):(\d+)$/.exec(name);
  return m ? { seed: Number(m[1]), index: Number(m[2]) } : undefined;
}
