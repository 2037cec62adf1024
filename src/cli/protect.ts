// `entia protect ID` / `entia unprotect ID`: only admins may edit a protected entity (403 resource-protected).
import type { Config } from '../config.js';
import { parseEntityId } from '../domain/kinds.js';
import { CliError, withStore } from './with-store.js';

export const PROTECT_USAGE = `  protect ID                          only admins may edit the item or property ID
  unprotect ID                        lift that`;

export async function protectCommand(config: Config, argv: string[], isProtected: boolean): Promise<void> {
  const [raw, ...extra] = argv;
  const parsed = raw === undefined ? null : parseEntityId(raw);
  if (!parsed || extra.length > 0) throw new CliError(`expected one item or property id\n${PROTECT_USAGE}`, 2);
  await withStore(config, async (store) => {
    await store.accounts.setProtected(parsed.id, isProtected);
    const exists = (await store.readEntity(parsed.id)).status !== 'missing';
    console.log(`${isProtected ? 'protected' : 'unprotected'} ${parsed.id}${exists ? '' : ' (no such entity yet)'}`);
  });
}
