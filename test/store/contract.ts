// The storage contract every backend must pass, run unchanged against each: one suite per named part of the
// Store interface (src/store/store.ts), in contract/.
import { after, describe } from 'node:test';
import type { Store } from '../../src/store/store.js';
import { accountsContract } from './accounts-contract.js';
import { browseContract } from './contract/browse.js';
import { countersContract } from './contract/counters.js';
import { entitiesContract } from './contract/entities.js';
import { importContract } from './contract/import.js';
import { searchContract } from './contract/search.js';

export function storeContract(name: string, open: () => Promise<Store>, cleanup: () => Promise<void>): void {
  describe(`store contract: ${name}`, () => {
    after(cleanup);
    entitiesContract(open);
    countersContract(open);
    importContract(open);
    searchContract(open);
    browseContract(open);
    accountsContract(open);
  });
}
