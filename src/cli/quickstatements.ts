// `entia quickstatements FILE`: runs a QuickStatements batch against the store, as POST /v1/quickstatements does
// (http/quickstatements/batch.ts, the same edit path), as the operator: no token, no rate limit. Prints one JSON
// line per command, then the batch's id and counts; exits 1 when a command failed.
import { readFileSync } from 'node:fs';
import type { Config } from '../config.js';
import { ITEM } from '../domain/kinds.js';
import { MAX_COMMANDS, parseCsv, parseV1 } from '../domain/quickstatements.js';
import { runBatch } from '../http/quickstatements/batch.js';
import type { Ctx } from '../http/context.js';
import { buildServices } from '../http/services.js';
import { CliError } from './errors.js';
import { describeStore, openStore, sitesOverride } from './open-store.js';

export const QUICKSTATEMENTS_HELP = `Reads FILE (- for standard input) in QuickStatements' V1 syntax (TAB- or |-separated commands, one per
line), or its CSV syntax with --csv (or a name ending in .csv), and runs it as one batch: the commands of one
entity that follow each other are one revision, each revision's comment names the batch (docs/api.md §10.17).

  --csv               the CSV syntax: a header row (qid, Len, Den, Aen, Senwiki, P31, -P31, qal…, S…, #)
  --user NAME         the user the revisions are recorded under (default quickstatements)
  --comment TEXT      added to every revision's comment after the batch id
  --bot               mark the revisions as bot edits`;

export async function quickstatementsCommand(config: Config, path: string, values: Record<string, unknown>): Promise<void> {
  let text: string;
  try {
    text = readFileSync(path === '-' ? 0 : path, 'utf8');
  } catch (e) {
    throw new CliError(`cannot read ${path}: ${(e as Error).message}`, 2);
  }
  const csv = values.csv === true || path.toLowerCase().endsWith('.csv');
  const lines = csv ? parseCsv(text) : parseV1(text);
  if (lines.length === 0) throw new CliError(`${path} holds no command`, 2);
  if (lines.length > MAX_COMMANDS) throw new CliError(`${path} holds ${lines.length} commands; a batch holds at most ${MAX_COMMANDS}`, 2);
  const user = typeof values.user === 'string' && values.user !== '' ? values.user : 'quickstatements';
  const store = await openStore(config, {}, 'create');
  console.error(`entia: store: ${describeStore(config.db)}`);
  try {
    const services = buildServices(config, sitesOverride(config));
    const ctx: Ctx = {
      kind: ITEM, params: {}, query: {}, body: {}, headers: {}, store, services, user, address: '127.0.0.1', url: '',
      identity: { kind: 'user', account: { name: user, group: 'admin', blockReason: null, hasToken: false, created: new Date() } },
    };
    const meta = { user, comment: typeof values.comment === 'string' ? values.comment : null, tags: [], bot: values.bot === true };
    const result = await runBatch(ctx, lines, meta);
    for (const command of result.commands) process.stdout.write(`${JSON.stringify(command)}\n`);
    console.error(`entia: batch #${result.batch}: ${result.done} done, ${result.failed} failed`);
    if (result.failed > 0) process.exitCode = 1;
  } finally {
    await store.close();
  }
}
