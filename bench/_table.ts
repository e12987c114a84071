// The benchmarks' tables, as plain aligned text.

/** Aligns rows of cells: the first column left, the others right. */
export function formatTable(rows: readonly string[][]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((row) => row[c]!.length)));
  return rows.map((row) =>
    row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!)))
      .join("  ")
  ).join("\n");
}
