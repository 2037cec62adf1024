// Reads a Wikidata dump as a stream of entities: `.json`, `.json.bz2` (through bzcat), `.json.gz`, or standard
// input; the latest-all.json array layout (`[`, one entity per line ending in `,`, `]`), the one-entity-per-line
// stream, or one whole document (Special:EntityData's `{"entities": {…}}`, an array, one entity). The layout is
// recognised from the JSON itself. Every failure names the file, and the line where there is one.
import { spawn } from 'node:child_process';
import { createReadStream, promises as fs } from 'node:fs';
import { PassThrough, type Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { CliError } from './errors.js';
import { lineBatches } from './lines.js';

export interface DumpLine {
  /** 1-based line number in the (decompressed) input. */
  line: number;
  /** The entity, or why this line is not one. */
  entity?: Record<string, unknown>;
  malformed?: string;
  /** Set on a malformed last line: the input was cut off in its middle (an interrupted download). */
  endsEarly?: boolean;
  /**
   * Whether reading can go on after this line on a later run: true for one entity per line, false for the
   * entities of a whole document, which share their line numbers.
   */
  resumable: boolean;
}

export interface DumpInput {
  /** Entities in input order; a line-mode input also yields its malformed lines. */
  lines: AsyncGenerator<DumpLine>;
  /** Bytes of the file read so far (compressed bytes for an archive), and its size; null for standard input. */
  progress: () => { read: number; total: number | null };
}

/** Opens the input; missing, unreadable and empty-named files fail here, before anything is imported. */
export async function openDump(path: string, skipLines = 0): Promise<DumpInput> {
  const { source, progress } = await openSource(path);
  return { lines: entities(source, path, skipLines), progress };
}

/**
 * The input's lines as text, in batches, for readers that parse them elsewhere (`entia import --threads`):
 * a file of one entity per line (see holdsEntityLines).
 */
export async function openDumpText(path: string): Promise<{ batches: AsyncGenerator<string[]>; progress: DumpInput['progress'] }> {
  const { source, progress } = await openSource(path);
  return { batches: lineBatches(source), progress };
}

/**
 * Whether a file holds one entity per line (the stream, or the array layout of latest-all.json), judged as
 * openDump judges it, by its first entity line; false for a whole document and for an empty file.
 */
export async function holdsEntityLines(path: string): Promise<boolean> {
  const { source } = await openSource(path);
  try {
    for await (const batch of lineBatches(source)) {
      for (const raw of batch) {
        const text = entityText(raw);
        if (text === null) continue;
        const parsed = parseEntityLine(text);
        return typeof parsed !== 'string' && !isEntitiesDocument(parsed);
      }
    }
    return false;
  } finally {
    source.destroy();
  }
}

async function openSource(path: string): Promise<{ source: Readable; progress: DumpInput['progress'] }> {
  let read = 0;
  let total: number | null = null;
  let source: Readable;
  if (path === '-') {
    source = process.stdin;
  } else {
    total = await checkReadable(path);
    const file = createReadStream(path, { highWaterMark: 1 << 20 });
    file.on('data', (chunk) => { read += chunk.length; });
    source = decompressed(path, file);
  }
  return { source, progress: () => ({ read, total }) };
}

/** The file's size; a CliError naming the file when it is missing, not a file, or not readable. */
export async function checkReadable(path: string): Promise<number> {
  try {
    const stat = await fs.stat(path);
    if (!stat.isFile()) throw new CliError(`${path}: not a file`);
    await fs.access(path, fs.constants.R_OK);
    return stat.size;
  } catch (e) {
    if (e instanceof CliError) throw e;
    const code = (e as { code?: string }).code;
    throw new CliError(`${path}: ${code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (e as Error).message}`);
  }
}

function decompressed(path: string, file: Readable): Readable {
  if (path.endsWith('.gz')) {
    const gunzip = createGunzip();
    const out = new PassThrough();
    gunzip.on('error', (e) => out.destroy(new CliError(`${path}: not a valid gzip file (${e.message})`)));
    file.pipe(gunzip).pipe(out);
    out.once('close', () => file.destroy()); // a reader that stops early (holdsEntityLines) lets go of the file
    return out;
  }
  if (!path.endsWith('.bz2')) return file;
  // bzip2 has no decoder in Node itself; bzcat is everywhere bzip2 is, and runs on a core of its own.
  const child = spawn('bzcat', [], { stdio: ['pipe', 'pipe', 'pipe'] });
  const out = new PassThrough();
  let stderr = '';
  child.stderr.on('data', (c) => { stderr += c; });
  child.on('error', (e) => out.destroy(new CliError((e as { code?: string }).code === 'ENOENT'
    ? `${path}: reading .bz2 needs bzcat (install bzip2)` : `${path}: ${e.message}`)));
  child.on('close', (code) => {
    if (code !== 0) out.destroy(new CliError(`${path}: ${bzcatDiagnosis(stderr, code)}`));
  });
  out.once('close', () => { // a reader that stops early (holdsEntityLines) ends bzcat and lets go of the file
    if (child.exitCode === null) child.kill();
    file.destroy();
  });
  file.pipe(child.stdin);
  child.stdin.on('error', () => {}); // bzcat gave up early; its exit status says why
  child.stdout.pipe(out, { end: false });
  child.stdout.on('end', () => child.once('close', (code) => { if (code === 0) out.end(); }));
  return out;
}

/**
 * bzcat's own diagnosis, its first line ("Compressed file ends unexpectedly"), not the advice it prints after
 * it; a file cut off in the middle (an interrupted download) is said to be so.
 */
export function bzcatDiagnosis(stderr: string, code: number | null): string {
  const first = stderr.split('\n').map((l) => l.trim()).find((l) => l.startsWith('bzcat:'));
  const said = first?.replace(/^bzcat:\s*/, '').replace(/[;.]\s*$/, '');
  if (!said) return `not a valid bzip2 file (bzcat exited ${code})`;
  if (/ends unexpectedly/i.test(said)) return `the compressed file ends unexpectedly: it is cut off (an interrupted download?) or damaged (bzcat: ${said})`;
  return `not a valid bzip2 file (bzcat: ${said})`;
}

/** A line of the array layout or the stream: one entity, with the array's `[`, `]` and trailing `,` around it. */
export function entityText(raw: string): string | null {
  const line = raw.trim();
  if (line === '' || line === '[' || line === ']') return null;
  return line.endsWith(',') ? line.slice(0, -1) : line;
}

/** One entity line's object, or why it is not one. */
export function parseEntityLine(text: string): Record<string, unknown> | string {
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed as Record<string, unknown> : 'not a JSON object';
  } catch (e) {
    return (e as Error).message;
  }
}

/** Where a line is, as every message about it says. */
export const lineAt = (path: string, n: number): string => `${path === '-' ? 'standard input' : path}:${n}`;

async function* entities(input: Readable, path: string, skipLines: number): AsyncGenerator<DumpLine> {
  let lineNo = 0;
  let whole: string[] | null = null; // a multi-line document, read whole
  let mode: 'lines' | 'document' | null = null;
  const where = (n: number) => lineAt(path, n);
  /** A malformed line is held until the next line: the input's last line, malformed, means it was cut off. */
  let held: DumpLine | null = null;
  for await (const batch of lineBatches(input)) for (const raw of batch) {
    lineNo++;
    if (held) { yield held; held = null; }
    if (mode === 'document') { whole!.push(raw); continue; }
    if (lineNo <= skipLines) continue;
    const text = entityText(raw);
    if (text === null) continue;
    const parsed = parseEntityLine(text);
    if (mode === null) {
      // The first entity line decides: a line that is a whole JSON object is the line layout.
      if (typeof parsed !== 'string') {
        mode = 'lines';
        yield* documentEntities(parsed, lineNo);
        continue;
      }
      mode = 'document';
      whole = [raw];
      continue;
    }
    if (typeof parsed === 'string') held = { line: lineNo, malformed: `${where(lineNo)}: ${parsed}`, resumable: true };
    else yield { line: lineNo, entity: parsed, resumable: true };
  }
  if (held) yield { ...held, endsEarly: true };
  if (mode !== 'document') return;
  let doc: unknown;
  try {
    doc = JSON.parse(whole!.join('\n'));
  } catch (e) {
    throw new CliError(`${where(lineNo)}: not a JSON document nor one entity per line (${(e as Error).message})`);
  }
  if (Array.isArray(doc)) {
    for (const e of doc) yield { line: lineNo, entity: e as Record<string, unknown>, resumable: false };
  } else {
    yield* documentEntities(doc as Record<string, unknown>, lineNo);
  }
}

const isEntitiesDocument = (doc: Record<string, unknown>): boolean =>
  Boolean(doc.entities) && typeof doc.entities === 'object' && !('type' in doc);

/** A Special:EntityData document holds its entities under `entities`; anything else is one entity. */
function* documentEntities(doc: Record<string, unknown>, line: number): Generator<DumpLine> {
  if (isEntitiesDocument(doc)) {
    for (const e of Object.values(doc.entities as Record<string, Record<string, unknown>>)) yield { line, entity: e, resumable: false };
  } else {
    yield { line, entity: doc, resumable: true };
  }
}
