// The run's output: one row per measured operation, each a ratio against its baseline from the same run,
// printed as a table and written as JSON (bench/results/latest.json) plus the Markdown table the README
// quotes (bench/results/latest.md).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface Figure {
  /** Operations per second (requests, edits, entities or queries). */
  rate: number;
  /** Latency percentiles in milliseconds, where measured. */
  p50?: number;
  p99?: number;
}

export interface Row {
  section: 'load' | 'read' | 'search' | 'edit' | 'feed' | 'sparql' | 'memory';
  name: string;
  unit: string;
  entia: Figure | null;
  baseline: ({ name: string } & Figure) | null;
  /** entia.rate / baseline.rate. */
  ratio: number | null;
  goal?: { text: string; met: boolean };
  /** Why the row was not measured, or what to know about it. */
  note?: string;
}

export interface Report {
  when: string;
  machine: Record<string, unknown>;
  options: Record<string, unknown>;
  dataset: Record<string, unknown>;
  rows: Row[];
  memory: Record<string, unknown>;
}

export function row(section: Row['section'], name: string, unit: string, entia: Figure | null,
  baseline: Row['baseline'], goal?: (entia: Figure, ratio: number | null) => Row['goal']): Row {
  const ratio = entia && baseline && baseline.rate > 0 ? entia.rate / baseline.rate : null;
  return { section, name, unit, entia, baseline, ratio, goal: entia ? goal?.(entia, ratio) : undefined };
}

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (f: Figure | null | undefined) =>
  f?.p50 === undefined ? '' : `${f.p50.toFixed(f.p50 < 10 ? 1 : 0)} / ${f.p99!.toFixed(f.p99! < 10 ? 1 : 0)}`;
const pct = (r: number | null) => (r === null ? '–' : `${(r * 100).toFixed(0)}%`);

function cells(r: Row): string[] {
  const goal = r.goal ? `${r.goal.met ? 'met' : 'MISSED'}: ${r.goal.text}` : '';
  if (!r.entia) return [r.name, '–', r.note ?? 'not measured', '', '', '', '', goal];
  return [
    r.name, pct(r.ratio), `${int(r.entia.rate)} ${r.unit}`, ms(r.entia),
    r.baseline?.name ?? '', r.baseline ? `${int(r.baseline.rate)} ${r.unit}` : '', ms(r.baseline), goal,
  ];
}

const HEADER = ['operation', 'ratio', 'Entia', 'p50 / p99 ms', 'baseline', 'baseline rate', 'p50 / p99 ms', 'goal'];

export function consoleTable(rows: Row[]): string {
  const table = [HEADER, ...rows.map(cells)];
  const widths = HEADER.map((_, i) => Math.max(...table.map((r) => r[i].length)));
  const lines = table.map((r) => r.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd());
  for (const r of rows) if (r.note && r.entia) lines.push(`  ${r.name}: ${r.note}`);
  return lines.join('\n');
}

export function markdownTable(rows: Row[]): string {
  const lines = [`| ${HEADER.join(' | ')} |`, `|${HEADER.map(() => '---').join('|')}|`];
  for (const r of rows) lines.push(`| ${cells(r).join(' | ')} |`);
  for (const r of rows) if (r.note && r.entia) lines.push('', `*${r.name}*: ${r.note}`);
  return lines.join('\n');
}

export function writeReport(path: string, report: Report): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(report, null, 2) + '\n');
  writeFileSync(path.replace(/\.json$/, '.md'), markdownTable(report.rows) + '\n');
}
