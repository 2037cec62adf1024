// POST /v1/quickstatements (docs/api.md §10.17): a QuickStatements batch, V1 or CSV, run command by command
// through the one edit path (batch.ts); the answer reports every command.
import { fail } from '../../domain/errors.js';
import { MAX_COMMANDS, parseCsv, parseV1 } from '../../domain/quickstatements.js';
import { parseMeta } from '../meta.js';
import { runBatch } from './batch.js';
import type { Ctx, Result } from '../context.js';

export const QS_FORMATS = ['v1', 'csv'] as const;

export async function postQuickStatements(ctx: Ctx): Promise<Result> {
  const text = ctx.body.commands as string;
  const format = (ctx.body.format ?? 'v1') as (typeof QS_FORMATS)[number];
  if (!QS_FORMATS.includes(format)) fail('invalid-value', { path: '/format' });
  const meta = parseMeta(ctx);
  const lines = format === 'csv' ? parseCsv(text) : parseV1(text);
  if (lines.length === 0) fail('invalid-value', { path: '/commands' });
  if (lines.length > MAX_COMMANDS) fail('value-too-long', { path: '/commands', limit: MAX_COMMANDS });
  // Who may not edit at all is told so once, not once per command; protected entities are checked per command.
  await ctx.services.guard.authorize(ctx, null);
  return { body: await runBatch(ctx, lines, meta) };
}
