// `entia user …`: accounts and their tokens (README "Security model"). Runs against ENTIA_DB directly,
// so it works whether or not a server is running on the same file.
import type { Config } from '../config.js';
import { hashToken, newToken, tokenSecret } from '../http/tokens.js';
import { USER_GROUPS, type Account, type UserGroup } from '../store/store.js';
import { CliError, withStore } from './with-store.js';

export const USER_USAGE = `  entia user add NAME [--group bot|admin]   create an account (group: user unless given)
  entia user token NAME                     print a new token for NAME, once; it replaces the old one
  entia user block NAME [--reason TEXT]     refuse NAME's edits (403 blocked-user, context: the reason)
  entia user unblock NAME                   let NAME edit again
  entia user list                           list accounts: name, group, whether a token is set, block`;

/**
 * Starts with a letter, then letters, digits, `_`, `.`, `-`; at most 64. A name can then never be mistaken
 * for the client address that anonymous revisions record (no `:`, no leading digit).
 */
const NAME = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;

function userName(name: string | undefined): string {
  if (name === undefined) throw new CliError(`missing NAME\n${USER_USAGE}`, 2);
  if (!NAME.test(name)) throw new CliError(`invalid user name '${name}': a letter, then letters, digits, '_', '.' or '-' (at most 64)`, 2);
  return name;
}

function group(value: string | undefined): UserGroup {
  if (value === undefined) return 'user';
  if (!(USER_GROUPS as readonly string[]).includes(value)) throw new CliError(`--group must be one of ${USER_GROUPS.join(', ')}`, 2);
  return value as UserGroup;
}

function formatUsers(users: Account[]): string {
  const rows = [['NAME', 'GROUP', 'TOKEN', 'BLOCKED'], ...users.map((u) => [
    u.name, u.group, u.hasToken ? 'yes' : 'no', u.blockReason === null ? '' : `yes${u.blockReason ? `: ${u.blockReason}` : ''}`,
  ])];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i])).join('  ').trimEnd()).join('\n');
}

export async function userCommand(config: Config, positionals: string[], values: { group?: unknown; reason?: unknown }): Promise<void> {
  const [sub, rawName] = positionals;
  const option = (v: unknown) => (typeof v === 'string' ? v : undefined);
  await withStore(config, async ({ accounts }) => {
    switch (sub) {
      case 'add': {
        const name = userName(rawName);
        const created = await accounts.createUser(name, group(option(values.group)));
        if (!created) throw new CliError(`user '${name}' already exists`);
        console.log(`created user ${name} (${created.group})`);
        return;
      }
      case 'token': {
        const name = userName(rawName);
        const token = newToken();
        const secret = await tokenSecret(config.secret, accounts);
        if (!(await accounts.setTokenHash(name, hashToken(secret, token)))) throw new CliError(`no user '${name}'`);
        // The token alone on stdout, so that scripts can capture it; it is not stored and cannot be shown again.
        console.log(token);
        const keyedBy = config.secret ? 'ENTIA_SECRET' : "the database's own secret (ENTIA_SECRET is unset)";
        console.error(`new token for ${name}, keyed by ${keyedBy}: shown once; any earlier token of ${name} no longer works`);
        return;
      }
      case 'block':
      case 'unblock': {
        const name = userName(rawName);
        const reason = sub === 'block' ? option(values.reason) ?? '' : null;
        if (!(await accounts.setBlocked(name, reason))) throw new CliError(`no user '${name}'`);
        console.log(`${sub}ed ${name}`);
        return;
      }
      case 'list':
        console.log(formatUsers(await accounts.listUsers()));
        return;
      default:
        throw new CliError(`unknown user command${sub ? ` '${sub}'` : ''}\n${USER_USAGE}`, 2);
    }
  });
}
