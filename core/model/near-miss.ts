/**
 * Near misses of a name the user typed: a variable (`API_TEST_KY`), an option (`--envfile`) or a command (`merg`) that
 * is one typo away from one the suite knows, so that a message can ask "did you mean …?".
 */

/** The edit distance of two names (insertions, deletions, substitutions, swaps of neighbours). */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) (d[0] as number[])[j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = d[i] as number[];
      const prev = d[i - 1] as number[];
      row[j] = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

/** Up to how many edits a name is a near miss of `known`: 2, more for long names (one per 6 characters). */
const nearMissBound = (known: string): number => Math.max(2, Math.floor(known.length / 6));

/**
 * The candidate `word` is a near miss of, if any: the closest within its bound (`nearMissBound`), case aside; a word
 * that differs from a candidate only in case counts as closer than any typo.
 */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  let best: { name: string; d: number } | undefined;
  for (const known of candidates) {
    const d = word === known ? 0 : word.toLowerCase() === known.toLowerCase() ? 0.5 : distance(word, known);
    if (d <= nearMissBound(known) && (!best || d < best.d)) best = { name: known, d };
  }
  return best?.name;
}
