// The Python clients (Pywikibot, WikibaseIntegrator) beside the checkout, importable with PYTHONPATH and no
// install step (ENTIA_PYTHON_CLIENTS overrides where), and why a test of one must skip where it cannot run.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const PYTHON_CLIENTS = process.env.ENTIA_PYTHON_CLIENTS ?? join(import.meta.dirname, '../../../shared/clients/python');

const python = (() => { try { execFileSync('python3', ['--version']); return true; } catch { return false; } })();

/** The reason to skip a test of the client in package `module` (named `name`), or false when it can run. */
export function pythonClientSkip(module: string, name: string): string | false {
  if (!python) return 'python3 is not installed';
  return existsSync(join(PYTHON_CLIENTS, module)) ? false : `no ${name} at ${PYTHON_CLIENTS}`;
}
