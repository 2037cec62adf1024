// Opens the configured store for one CLI command and always closes it.
import type { Store } from '../store/store.js';
import { openStore, type StoreConfig } from './open-store.js';

export async function withStore<T>(config: StoreConfig, run: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore(config);
  try {
    return await run(store);
  } finally {
    await store.close();
  }
}

/** A failure the user caused (unknown user, bad argument): printed without a stack, exit status 1. */
export class CliError extends Error {
  constructor(message: string, readonly exitCode = 1) {
    super(message);
  }
}
