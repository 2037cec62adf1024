// COPY … FROM STDIN in the text format: how a bulk import sends rows. An INSERT of unnest() arrays makes the
// client quote every element into an array literal and the server parse it again; for the documents of an
// import batch (5,000 of about 10 KB, full of quotes) that cost 23 of the 35 s of a 22,000-item load (ADR 0008).
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

/** Escapes of the text format: a backslash, and the characters that end a field or a row. */
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const NEEDS_ESCAPE = /[\\\t\n\r]/;

/** One field: null is \N, a number its digits, anything else its text with the format's escapes. */
function field(value: unknown): string {
  if (typeof value === 'number') return String(value);
  if (value === null || value === undefined) return '\\N';
  const text = String(value);
  return NEEDS_ESCAPE.test(text) ? text.replace(/[\\\t\n\r]/g, (c) => ESCAPES[c]) : text;
}

/** A text[] value as the array literal a field holds: every element quoted. */
export function arrayLiteral(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replace(/[\\"]/g, '\\$&')}"`).join(',')}}`;
}

/** COPYs rows into a table within the client's transaction, sent in chunks of about a megabyte. */
export async function copyRows(client: pg.PoolClient, table: string, columns: readonly string[], rows: readonly unknown[][]): Promise<void> {
  if (rows.length === 0) return;
  function* chunks(): Generator<string> {
    let chunk = '';
    for (const row of rows) {
      // Field by field: no array per row (an import batch sends about a million rows).
      chunk += field(row[0]);
      for (let i = 1; i < row.length; i++) chunk += '\t' + field(row[i]);
      chunk += '\n';
      if (chunk.length >= 1 << 20) {
        yield chunk;
        chunk = '';
      }
    }
    if (chunk) yield chunk;
  }
  await pipeline(Readable.from(chunks()), client.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN`)));
}
