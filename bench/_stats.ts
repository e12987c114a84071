// What the benchmarks make of their rounds: the median, and the ratio of two contenders judged
// round by round.

/** The median of a non-empty list. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * `a` over `b` round by round, the median of those ratios. Each round runs both sides back to
 * back, so a slow stretch of the machine slows both and cancels out, which a ratio of the two
 * medians does not do. Not rounded: a target is judged on the ratio itself (0.8996 is below 0.9),
 * and only the display rounds.
 */
export function pairedRatio(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length || a.length === 0) throw new Error("pairedRatio needs rounds of both");
  return median(a.map((value, i) => value / b[i]!));
}
