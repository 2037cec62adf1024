// `entia protect ID` / `entia unprotect ID`: only admins may edit a protected entity (403 resource-protected).
import type { Config } from '../config.js';
import { parseEntityId } from '../domain/kinds.js';
import { CliError, withStore } from './with-store.js';

export async function protectCommand(config: Config, raw: string, isProtected: boolean): Promise<void> {
  const parsed = parseEntityId(raw);
  if (!parsed) throw new CliError(`'${raw}' is not an item or property id`, 2);
  await withStore(config, async (store) => {
    await store.accounts.setProtected(parsed.id, isProtected);
    const exists = (await store.readEntity(parsed.id)).status !== 'missing';
    console.log(`${isProtected ? 'protected' : 'unprotected'} ${parsed.id}${exists ? '' : ' (no such entity yet)'}`);
  });
}
