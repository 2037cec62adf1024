// One row of CSV (RFC 4180): a cell with a comma, quote or line break is quoted, its quotes doubled.
export function csvRow(cells: readonly string[]): string {
  return cells.map((c) => (/[",\n\r]/.test(c) ? `"${c.replaceAll('"', '""')}"` : c)).join(',');
}
