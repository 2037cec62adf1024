#!/usr/bin/env node
// The composition root: reads the environment, chooses the store backend, dispatches the command. Each
// command is a row of COMMANDS: its usage, its help, its options (node's util.parseArgs) and what it runs.
import { readFileSync } from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { configFromEnv, type Config } from '../config.js';
import { conceptVocabulary } from '../http/vocabulary.js';
import { RedirectRefused } from '../store/store.js';
import { parseEntityId } from '../domain/kinds.js';
import { checkRedirect, checkRedirectIds, RedirectRefusal } from '../domain/redirect.js';
import { count, defaultImportThreads, IMPORT_BATCH, MAX_IMPORT_THREADS } from './import.js';
import { describeStore, loadSites, openStore } from './open-store.js';
import { protectCommand } from './protect.js';
import { backupCommand, restoreCommand } from './backup.js';
import { userCommand, USER_USAGE } from './user.js';
import { CliError } from './errors.js';
import { EXPORT_FORMATS, exportStore, exportTarget, readIdsFile, type ExportFormat } from './export.js';
import { SPARQL_SYNC_HELP, sparqlSyncCommand } from './sparql-sync.js';
import { QUICKSTATEMENTS_HELP, quickstatementsCommand } from './quickstatements.js';
import { CHECK_CONSTRAINTS_HELP, checkConstraintsCommand } from './check-constraints.js';
import { importCommand } from './import-command.js';

async function exportCommand(config: Config, path: string | undefined, values: Record<string, unknown>): Promise<void> {
  const format = (values.format ?? 'wikidata') as ExportFormat;
  if (!EXPORT_FORMATS.includes(format)) throw new CliError(`--format must be one of ${EXPORT_FORMATS.join(', ')}`, 2);
  const ids = typeof values.ids === 'string' ? readIdsFile(values.ids) : undefined;
  const since = typeof values.since === 'string' ? values.since : undefined;
  const flavor = values.flavor ?? 'full';
  if (flavor !== 'full' && flavor !== 'truthy') throw new CliError('--flavor must be full or truthy', 2);
  if (values.flavor !== undefined && format !== 'nt' && format !== 'ttl') throw new CliError('--flavor goes with --format nt or ttl', 2);
  const rdf = { flavor: flavor as 'full' | 'truthy',
    vocabulary: conceptVocabulary(config) };
  const store = await openStore(config);
  try {
    const target = exportTarget(path);
    console.error(`entia: exporting ${describeStore(config.db)} as ${format} to ${path && path !== '-' ? path : 'standard output'}`);
    const started = Date.now();
    const summary = await exportStore(store, target.out, loadSites(config), {
      format, ids, since, rdf,
      onProgress: process.stderr.isTTY ? (n) => process.stderr.write(`\rentia: ${n} entities written`) : undefined,
    });
    if (target.out !== process.stdout) target.out.end();
    await target.done();
    if (process.stderr.isTTY) process.stderr.write('\n');
    console.error(`entia: exported ${count(summary.entities, 'entity', 'entities')} in ${((Date.now() - started) / 1000).toFixed(1)} s`
      + (summary.next !== null ? `; continue with --since ${summary.next}` : ''));
  } finally {
    await store.close();
  }
}

/**
 * `entia redirect Q1 Q2`: the empty item Q1 becomes a redirect to Q2, by the rules wbcreateredirect follows
 * (domain/redirect.ts), so the command line refuses what the API refuses (docs/api.md §9.1).
 */
async function redirectCommand(config: Config, source: string, target: string): Promise<void> {
  const from = parseEntityId(source)?.id;
  const to = parseEntityId(target)?.id;
  if (!from || !to) throw new CliError('expected two entity ids', 2);
  try {
    checkRedirectIds(from, to);
  } catch (e) {
    throw e instanceof RedirectRefusal ? new CliError(`${e.message} Nothing changed.`) : e;
  }
  const store = await openStore(config);
  console.error(`entia: store: ${describeStore(config.db)}`);
  try {
    try {
      checkRedirect(from, await store.readEntity(from, 'edit'), to, await store.readEntity(to, 'read'));
      await store.redirectEntity(from, to, { user: 'cli', comment: `redirect ${from} to ${to}`, tags: [], bot: false });
    } catch (e) {
      if (e instanceof RedirectRefusal) throw new CliError(`${e.message} Nothing changed.`);
      if (!(e instanceof RedirectRefused)) throw e;
      throw new CliError(`${to} ${e.reason === 'target-is-redirect' ? 'is itself a redirect' : 'does not exist'}. Nothing changed.`);
    }
    console.log(`${from} now redirects to ${to}`);
  } finally {
    await store.close();
  }
}

interface Command {
  /** Arguments after the command's name, as in the usage line. */
  args: string;
  summary: string;
  /** More lines for `entia COMMAND --help`. */
  help?: string;
  options?: ParseArgsConfig['options'];
  /** Positionals: exactly this many, or a range. */
  positionals: [min: number, max: number];
  run(config: Config, positionals: string[], values: Record<string, string | boolean | undefined>): Promise<void>;
}

const COMMANDS: Record<string, Command> = {
  serve: {
    args: '', summary: 'start the HTTP API and the web pages', positionals: [0, 0],
    help: 'Configured by the environment: PORT, HOST, ENTIA_DB, ENTIA_EDIT, ENTIA_WORKERS, … (README, "Configuration").',
    // Loaded when asked for: the HTTP stack (Fastify, the pages, the engines) is most of a start-up's time, and
    // the other commands (and --help) need none of it.
    run: async (config) => (await import('./serve.js')).serve(config),
  },
  import: {
    args: 'FILE|- [options]', summary: 'load a Wikidata dump (.json, .json.gz, .json.bz2, or - for standard input) into ENTIA_DB',
    positionals: [1, 1],
    options: {
      mode: { type: 'string' }, languages: { type: 'string' }, sites: { type: 'string' }, 'no-sitelinks': { type: 'boolean' },
      types: { type: 'string' }, has: { type: 'string', multiple: true }, ids: { type: 'string' }, strict: { type: 'boolean' },
      restart: { type: 'boolean' }, 'batch-size': { type: 'string' }, report: { type: 'string' }, threads: { type: 'string' },
    },
    help: `Reads latest-all.json's layout (one entity per line in an array), the one-entity-per-line stream, or one
Special:EntityData document. Run again after an interruption (Ctrl-C, kill, a crash), the same command goes on
after the last batch it wrote.

  --mode newer|skip-existing|overwrite
                      what to do with an entity the store holds already. newer (the default): replace it only
                      with a later revision of the source, and never after a local edit; skip-existing: leave
                      it; overwrite: replace it, local edits included
  --languages en,de   keep terms in these languages only
  --sites enwiki,…    keep sitelinks to these sites only;  --no-sitelinks: none
  --types item,property
                      keep these kinds of entity only
  --has P31=Q5        keep entities with this statement value (or --has P625: any value); repeatable: any of them
  --ids FILE          keep only the ids listed in FILE (whitespace-separated)
  --strict            stop at the first malformed line instead of skipping and counting it
  --restart           ignore what an earlier, unfinished run of the same input did and start from the beginning
  --batch-size N      entities per transaction (default ${IMPORT_BATCH})
  --threads N         threads that parse, convert and prepare entities (here ${defaultImportThreads('sqlite')} into SQLite, ${defaultImportThreads('postgres')} into
                      PostgreSQL: the cores but one, at least two into SQLite on two cores; at most ${MAX_IMPORT_THREADS});
                      1: all on the import's own thread. Standard input and a whole document are read on
                      one thread
  --report FILE       write one JSON line for every entity or line not imported whole, with the reason:
                      skipped (existing, editedLocally, notNewer, notStorable, localEntity, inLocalRange),
                      superseded, malformed, sitelinkConflict, dropped (entities filtered out are not listed)`,
    run: (config, [path], values) => importCommand(config, path, values),
  },
  export: {
    args: '[OUT] [options]', summary: 'write the store out as a Wikidata dump (or REST documents); .gz/.bz2 by name', positionals: [0, 1],
    options: { format: { type: 'string' }, ids: { type: 'string' }, since: { type: 'string' }, flavor: { type: 'string' } },
    help: `Writes every item and property (redirects left out) to OUT, or to standard output.

  --format wikidata   latest-all.json's layout: an array, one entity per line (the default); readable by
                      entia import and other Wikidata dump tools
  --format jsonl      the same entities one per line, without the array
  --format rest       one entity per line as GET /v1/entities/… returns it
  --format nt|ttl     RDF as Wikibase's dumps write it (N-Triples; ttl is the same, valid Turtle), after the
                      dump header; entity URIs under ENTIA_CONCEPT_URI
  --flavor full|truthy
                      with nt/ttl: everything (the default), or terms, sitelinks and best-rank values only
  --ids FILE          only the ids listed in FILE (whitespace-separated)
  --since CURSOR      only the entities changed after CURSOR of GET /v1/changes; prints the cursor to go on from`,
    run: (config, [path], values) => exportCommand(config, path, values),
  },
  'sparql-sync': {
    args: '[--once] [--settle S] | --dump FILE', summary: 'load an external SPARQL engine from the store and keep it in step with every change',
    positionals: [0, 0], options: { once: { type: 'boolean' }, settle: { type: 'string' }, dump: { type: 'string' } }, help: SPARQL_SYNC_HELP,
    run: (config, _, values) => sparqlSyncCommand(config, loadSites(config), values),
  },
  'check-constraints': {
    args: '[--ids FILE] [--format jsonl|csv]', summary: 'report every constraint violation in the store (or of some ids)',
    positionals: [0, 0], options: { ids: { type: 'string' }, format: { type: 'string' } }, help: CHECK_CONSTRAINTS_HELP,
    run: (config, _, values) => checkConstraintsCommand(config, values),
  },
  quickstatements: {
    args: 'FILE [--csv] [--user NAME] [--comment TEXT] [--bot]', summary: 'run a QuickStatements batch (V1 or CSV) against the store',
    positionals: [1, 1], options: { csv: { type: 'boolean' }, user: { type: 'string' }, comment: { type: 'string' }, bot: { type: 'boolean' } },
    help: QUICKSTATEMENTS_HELP,
    run: (config, [path], values) => quickstatementsCommand(config, path, values),
  },
  redirect: {
    args: 'FROM_ITEM TO_ITEM', summary: 'make an item a redirect to another (as after a merge)', positionals: [2, 2],
    run: (config, [from, to]) => redirectCommand(config, from, to),
  },
  user: {
    args: 'add|token|block|unblock|list [NAME]', summary: 'manage accounts and their tokens', positionals: [1, 2],
    options: { group: { type: 'string' }, reason: { type: 'string' } },
    help: USER_USAGE,
    run: (config, positionals, values) => userCommand(config, positionals, values),
  },
  backup: {
    args: 'FILE [--force]', summary: 'write a consistent copy of the whole SQLite store (history and accounts too), while it serves',
    positionals: [1, 1], options: { force: { type: 'boolean' } },
    help: `Copies everything the store holds: entities, every revision, accounts, token hashes and the secret that
keys them, protections, the change feed. Safe while entia serve runs: the copy is one consistent snapshot, and
it appears under FILE only once it is complete and checked. On PostgreSQL use pg_dump (README, "Backup and
restore").

  --force             replace FILE if it exists`,
    run: (config, [file], values) => backupCommand(config, file, values),
  },
  restore: {
    args: 'FILE [--force]', summary: 'make ENTIA_DB a copy of a backup (stop the server first)', positionals: [1, 1],
    options: { force: { type: 'boolean' } },
    help: `Checks that FILE is an intact Entia store, then puts a copy of it at ENTIA_DB.

  --force             replace the store at ENTIA_DB; it is moved aside (ENTIA_DB.before-restore-TIME), not deleted`,
    run: (config, [file], values) => restoreCommand(config, file, values),
  },
  protect: {
    args: 'ID', summary: 'only admins may edit the item or property ID', positionals: [1, 1],
    run: (config, [id]) => protectCommand(config, id, true),
  },
  unprotect: {
    args: 'ID', summary: 'lift the protection of ID', positionals: [1, 1],
    run: (config, [id]) => protectCommand(config, id, false),
  },
};

const usageLine = (name: string) => `entia ${name}${COMMANDS[name].args ? ` ${COMMANDS[name].args}` : ''}`;

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((n) => usageLine(n).length));
  return ['Usage: entia <command> [options]   (every command uses ENTIA_DB; README, "Configuration")', '',
    ...Object.keys(COMMANDS).map((n) => `  ${usageLine(n).padEnd(width)}  ${COMMANDS[n].summary}`), '',
    'entia <command> --help shows a command\'s own help; entia --version prints the version.'].join('\n');
}

function commandHelp(name: string): string {
  const c = COMMANDS[name];
  return [`Usage: ${usageLine(name)}`, '', c.summary, ...(c.help ? ['', c.help] : [])].join('\n');
}

/** ` Did you mean --languages?` for an unknown option close to a known one (same first three letters, or a typo). */
function suggestOption(error: Error, known: string[]): string {
  const given = /Unknown option '--?([^']+)'/.exec(error.message)?.[1];
  if (!given) return '';
  const close = known.find((k) => k.slice(0, 3) === given.slice(0, 3) || editDistance(k, given) <= 2);
  return close ? ` Did you mean --${close}?` : '';
}

function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length];
}

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

async function main(argv: string[]): Promise<void> {
  const [name, ...rest] = argv;
  if (name === '--help' || name === '-h' || name === 'help') return void console.log(usage());
  if (name === '--version' || name === '-V') return void console.log(version());
  const command = name === undefined ? undefined : COMMANDS[name];
  if (!command) throw new CliError(`${name === undefined ? 'no command given' : `unknown command '${name}'`}\n\n${usage()}`, 2);
  let parsed;
  try {
    parsed = parseArgs({ args: rest, allowPositionals: true, strict: true,
      options: { ...command.options, help: { type: 'boolean', short: 'h' } } });
  } catch (e) {
    throw new CliError(`${(e as Error).message}${suggestOption(e as Error, Object.keys(command.options ?? {}))}\nUsage: ${usageLine(name!)}`, 2);
  }
  if (parsed.values.help) return void console.log(commandHelp(name!));
  const [min, max] = command.positionals;
  if (parsed.positionals.length < min || parsed.positionals.length > max) {
    throw new CliError(`wrong number of arguments\nUsage: ${usageLine(name!)}`, 2);
  }
  let config: Config;
  try {
    config = configFromEnv(process.env);
  } catch (e) {
    throw new CliError((e as Error).message);
  }
  await command.run(config, parsed.positionals, parsed.values as Record<string, string | boolean | undefined>);
}

main(process.argv.slice(2)).catch((e: unknown) => {
  console.error(e instanceof CliError ? `entia: ${e.message}` : e instanceof Error ? `entia: ${e.message}` : e);
  process.exit(e instanceof CliError ? e.exitCode : 1);
});
