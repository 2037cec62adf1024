#!/usr/bin/env node
// The composition root: reads the environment, chooses the store backend, starts the server.
import { readFileSync } from 'node:fs';
import { configFromEnv, type Config } from '../config.js';
import { buildApp } from '../http/app.js';
import { buildServices } from '../http/services.js';
import { openStore } from './open-store.js';

async function serve(config: Config): Promise<void> {
  const store = await openStore(config.db);
  const sites = config.sitesFile ? JSON.parse(readFileSync(config.sitesFile, 'utf8')) : undefined;
  const app = buildApp({ store, services: buildServices(config, sites) });
  const shutdown = async () => {
    await app.close();
    await store.close();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
  await app.listen({ host: config.host, port: config.port });
}

const USAGE = `Usage: entia <command>
  serve     start the HTTP API (PORT, HOST, ENTIA_DB, … see README)`;

async function main(argv: string[]): Promise<void> {
  const [command] = argv;
  switch (command) {
    case 'serve':
      return serve(configFromEnv(process.env));
    default:
      console.error(USAGE);
      process.exitCode = command ? 2 : 0;
  }
}

main(process.argv.slice(2)).catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
