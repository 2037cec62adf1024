// `entia import`: its options read into ImportOptions, a progress bar on a terminal, a report file, then
// importDump (import.ts).
import { createWriteStream, openSync, readFileSync } from 'node:fs';
import type { Config } from '../config.js';
import cliProgress from 'cli-progress';
import type { DumpFilter } from '../domain/wikidata.js';
import { count, IMPORT_BATCH, MAX_IMPORT_THREADS, IMPORT_MODES, IMPORT_TUNING, importComment, importDump, type ImportMode, type ImportOptions, type ImportSummary, type SkipReason } from './import.js';
import { describeStore, loadSites, openStore } from './open-store.js';
import { CliError } from './errors.js';
import { kindNamed } from '../domain/kinds.js';

export async function importCommand(config: Config, path: string, values: Record<string, unknown>): Promise<void> {
  const options = importOptions(values);
  const report = typeof values.report === 'string' ? reportFile(values.report) : null;
  const store = await openStore(config, IMPORT_TUNING, 'create');
  const bar = process.stderr.isTTY ? importProgressBar() : null;
  let last: ImportSummary | null = null;
  // Ctrl-C: each batch is one transaction with its checkpoint, so what is written is whole; say where the import
  // stands and how to go on, with the terminal's cursor back.
  const interrupted = () => {
    bar?.stop();
    console.error(`\nentia: interrupted${last ? ` after ${count(last.imported, 'entity', 'entities')} of this run` : ''}; every batch `
      + 'written is kept. Run the same command again to go on after the last batch written (--restart starts over).');
    process.exit(130);
  };
  // Listen before saying the import started: whoever reads that line may press Ctrl-C at once.
  process.once('SIGINT', interrupted);
  console.error(`entia: importing ${path === '-' ? 'standard input' : path} into ${describeStore(config.db)} (mode ${options.mode})`);
  try {
    const summary = await importDump(store, path, loadSites(config), { user: 'import', comment: importComment(path), tags: [], bot: true }, {
      ...options,
      localIdStart: config.localIdsFrom,
      onReport: report ? (entry) => report.write(`${JSON.stringify(entry)}\n`) : undefined,
      onNote: (note) => (bar ? bar.log(`entia: ${note}\n`) : console.error(`entia: ${note}`)),
      onProgress: (s, read) => { last = s; bar?.update(s, read); },
    });
    bar?.stop();
    console.log(summaryLine(summary));
    if (summary.endsEarlyAt !== null) {
      throw new CliError(`${path}: the input ends early: its last line (${summary.endsEarlyAt}) is cut off (an interrupted `
        + 'download?). Everything before it is imported; get the whole file and run the import again.');
    }
  } finally {
    process.off('SIGINT', interrupted);
    bar?.stop();
    await store.close();
    await report?.close();
  }
}

/** `--report FILE`: JSON lines, one per entity or line not imported whole; opened before the import starts. */
function reportFile(path: string): { write: (line: string) => void; close: () => Promise<void> } {
  let fd: number;
  try {
    fd = openSync(path, 'w');
  } catch (e) {
    throw new CliError(`--report ${path}: ${(e as { code?: string }).code === 'ENOENT' ? 'its directory does not exist' : (e as Error).message}`);
  }
  const out = createWriteStream(path, { fd });
  return {
    write: (line) => { out.write(line); },
    close: () => new Promise((resolve) => out.end(resolve)),
  };
}

function listOption(values: Record<string, unknown>, name: string): Set<string> | undefined {
  const v = values[name];
  return typeof v === 'string' ? new Set(v.split(',').map((x) => x.trim()).filter(Boolean)) : undefined;
}

/** `--has P31=Q5` (a statement with that value) or `--has P625` (any value); repeatable: any of them. */
function hasOption(raw: unknown): DumpFilter['has'] {
  const list = Array.isArray(raw) ? raw as string[] : [];
  return list.map((text) => {
    const m = /^(P[1-9][0-9]*)(?:=(.+))?$/i.exec(text.trim());
    if (!m) throw new CliError(`--has ${text}: expected PROPERTY=VALUE (e.g. P31=Q5) or PROPERTY`, 2);
    return { property: m[1].toUpperCase(), value: m[2] ?? null };
  });
}

function importOptions(values: Record<string, unknown>): Omit<ImportOptions, 'onNote' | 'onProgress'> {
  const mode = (values.mode ?? 'newer') as ImportMode;
  if (!IMPORT_MODES.includes(mode)) throw new CliError(`--mode must be one of ${IMPORT_MODES.join(', ')}`, 2);
  const types = listOption(values, 'types');
  for (const t of types ?? []) if (kindNamed(t) === null) throw new CliError(`--types: '${t}' is not item or property`, 2);
  if (values['no-sitelinks'] && values.sites !== undefined) throw new CliError('--sites and --no-sitelinks exclude each other', 2);
  let ids: Set<string> | undefined;
  if (typeof values.ids === 'string') {
    try {
      ids = new Set(readFileSync(values.ids, 'utf8').split(/\s+/).filter(Boolean).map((id) => id.toUpperCase()));
    } catch (e) {
      throw new CliError(`--ids ${values.ids}: ${(e as Error).message}`);
    }
  }
  const batchSize = values['batch-size'] === undefined ? IMPORT_BATCH : Number(values['batch-size']);
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new CliError('--batch-size must be a positive integer', 2);
  const threads = values.threads === undefined ? undefined : Number(values.threads); // undefined: the default
  if (threads !== undefined && (!Number.isInteger(threads) || threads < 1 || threads > MAX_IMPORT_THREADS)) {
    throw new CliError(`--threads must be a whole number from 1 to ${MAX_IMPORT_THREADS}`, 2);
  }
  return {
    mode, strict: values.strict === true, restart: values.restart === true, batchSize, threads,
    filter: { types, ids, has: hasOption(values.has), languages: listOption(values, 'languages'),
      sites: values['no-sitelinks'] ? 'none' : listOption(values, 'sites') },
  };
}

/** The terminal's progress display: bytes of the input read, entities, rate and time left. */
function importProgressBar() {
  const bar = new cliProgress.SingleBar({
    format: 'importing [{bar}] {percentage}% of the input | {imported} entities | {rate}/s | ETA {eta_formatted}',
    hideCursor: true, etaBuffer: 50,
  }, cliProgress.Presets.shades_classic);
  let started = false;
  const at = Date.now();
  return {
    update(s: ImportSummary, read: { read: number; total: number | null }) {
      const payload = { imported: s.imported, rate: Math.round(s.imported / Math.max(0.001, (Date.now() - at) / 1000)) };
      if (!started) { bar.start(read.total ?? 1, 0, payload); started = true; }
      bar.update(read.total === null ? 0 : read.read, payload);
    },
    log(text: string) {
      if (started) bar.stop();
      process.stderr.write(text);
      started = false;
    },
    stop() {
      if (started) bar.stop();
      started = false;
    },
  };
}

const REASON_WORDS: Record<SkipReason | 'sitelinkConflict', string> = {
  existing: 'existing', editedLocally: 'edited locally', notNewer: 'not newer', filteredOut: 'filtered out',
  notStorable: 'not storable', localEntity: 'created locally under a source id', inLocalRange: 'in the local id range',
  sitelinkConflict: 'sitelink conflicts',
};

/** The one line `entia import` ends with; the ids of local-entity and local-range skips and conflicts are named. */
export function summaryLine(s: ImportSummary): string {
  const skipped = Object.values(s.skipped).reduce((a, b) => a + b, 0);
  const rate = s.seconds > 0 ? Math.round(s.imported / s.seconds) : s.imported;
  const reasons = (Object.keys(s.skipped) as SkipReason[]).map((r) => `${s.skipped[r]} ${REASON_WORDS[r]}`).join(', ');
  const named = (Object.entries(s.named) as [SkipReason | 'sitelinkConflict', string[]][])
    .filter(([r]) => r !== 'notNewer' && r !== 'existing')
    .map(([r, ids]) => `${REASON_WORDS[r]}: ${ids.join(', ')}${(r === 'sitelinkConflict' ? s.sitelinkConflicts : s.skipped[r as SkipReason]) > ids.length ? ', …' : ''}`);
  return `imported ${count(s.imported, 'entity', 'entities')} (+${s.placeholders} placeholder properties) in ${s.seconds.toFixed(1)} s (${rate}/s`
    + `${s.indexSeconds >= 0.1 ? `, ${s.indexSeconds.toFixed(1)} s of it building indexes` : ''})`
    + `${s.resumedAfterLine ? `, resumed after line ${s.resumedAfterLine}` : ''}; `
    + `skipped ${skipped} (${reasons}); ${count(s.superseded, 'line', 'lines')} superseded by a later line of the same entity; `
    + `${count(s.malformedLines, 'malformed line', 'malformed lines')}; ${count(s.sitelinkConflicts, 'sitelink conflict', 'sitelink conflicts')}; `
    + `dropped ${s.droppedTerms} terms, ${s.droppedSitelinks} sitelinks, ${s.droppedStatements} statements Entia cannot store`
    + `${named.length ? ` (${named.join('; ')})` : ''}`;
}
