// Opens the configured store for one CLI command, says which one on stderr, and always closes it.
import type { Store } from '../store/store.js';
import { describeStore, openStore, type StoreConfig } from './open-store.js';

export { CliError } from './errors.js';

export async function withStore<T>(config: StoreConfig, run: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore(config);
  console.error(`entia: store: ${describeStore(config.db)}`);
  try {
    return await run(store);
  } finally {
    await store.close();
  }
}
