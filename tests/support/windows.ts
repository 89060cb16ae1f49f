/** The most timestamps in any window of `ms` milliseconds (pacing, measured from the target's side). */
export function busiestWindow(times: number[], ms: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while ((sorted[i] as number) - (sorted[j] as number) >= ms) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}
