// A reading thread of `entia import --threads` (import-pool.ts): parses and converts the lines it is sent,
// holds the entities until their batch is settled, then packs those the batch writes for the store. Packing
// goes before reading: the store's writer waits for packs, while the main thread has read ahead.
import { parentPort, workerData } from 'node:worker_threads';
import type { Entity } from '../domain/entity.js';
import { packPostgresSlice } from '../store/postgres/packed-import.js';
import { packImportSlice } from '../store/sqlite/prepared-import.js';
import { movable } from '../store/sqlite/import-thread.js';
import { entityText, lineAt, parseEntityLine } from './dump-reader.js';
import { readEntity, type Reading } from './import-reading.js';
import type { ReaderReply, ReaderRequest, ReaderSetup } from './import-pool.js';

const port = parentPort!;
const setup = workerData as ReaderSetup;
/** The store's packer (PackedImports.packer). */
const pack = setup.packer === 'postgres' ? packPostgresSlice : (entities: Entity[]) => packImportSlice(entities, setup.deferIndexes);
/** Entities read, by input line, until a batch packs them or passes them by. */
const held = new Map<number, Entity>();
const urgent: ReaderRequest[] = [];
const reads: ReaderRequest[] = [];
let scheduled = false;

port.on('message', (request: ReaderRequest) => {
  (request.type === 'read' ? reads : urgent).push(request);
  if (!scheduled) {
    scheduled = true;
    setImmediate(next);
  }
});

/** One request at a time, so that a pack that arrives meanwhile goes before the reads queued already. */
function next(): void {
  scheduled = false;
  const request = urgent.shift() ?? reads.shift();
  if (!request) return;
  try {
    handle(request);
  } catch (e) {
    if ('id' in request) reply({ id: request.id, error: (e as Error).message ?? String(e) });
  }
  if (urgent.length + reads.length > 0) {
    scheduled = true;
    setImmediate(next);
  }
}

function reply(message: ReaderReply, transfer: ArrayBuffer[] = []): void {
  port.postMessage(message, transfer);
}

function handle(request: ReaderRequest): void {
  switch (request.type) {
    case 'read':
      reply({ id: request.id, readings: readLines(request.first, request.lines) });
      return;
    case 'pack': {
      const leftOut = new Map(request.leftOut);
      const entities = request.lines.map((line) => {
        const entity = held.get(line)!;
        held.delete(line);
        for (const site of leftOut.get(line) ?? []) delete entity.sitelinks![site];
        return entity;
      });
      const packed = pack(entities);
      reply({ id: request.id, packed }, movable(packed));
      return;
    }
    case 'release':
      for (const line of held.keys()) if (line <= request.upTo) held.delete(line);
  }
}

function readLines(first: number, lines: string[]): Reading[] {
  const readings: Reading[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = first + i;
    const text = entityText(lines[i]);
    if (text === null) continue;
    const parsed = parseEntityLine(text);
    if (typeof parsed === 'string') {
      readings.push({ line, outcome: 'malformed', message: `${lineAt(setup.path, line)}: ${parsed}` });
      continue;
    }
    const reading = readEntity(parsed, line, setup);
    if (reading.outcome === 'candidate') {
      held.set(line, reading.candidate.entity!);
      delete reading.candidate.entity;
    }
    readings.push(reading);
  }
  return readings;
}
