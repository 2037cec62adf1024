// A real external SPARQL engine for the tests: Debian's Virtuoso (`virtuoso-opensource-7`), started on free ports
// over a scratch database, with SPARQL Update allowed on its endpoint (as the README's recipe says). .ci/run
// installs the package and sets ENTIA_TEST_VIRTUOSO; without it, a checkout that lacks /usr/bin/virtuoso-t
// skips these tests with a note, never silently passes them.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';

const DEFAULT_VIRTUOSO = '/usr/bin/virtuoso-t';
export const VIRTUOSO = process.env.ENTIA_TEST_VIRTUOSO ?? DEFAULT_VIRTUOSO;
export const skipVirtuoso = process.env.ENTIA_TEST_VIRTUOSO === undefined && !existsSync(DEFAULT_VIRTUOSO)
  ? 'Debian\'s virtuoso-opensource-7 is not installed (apt-get install virtuoso-opensource-7; .ci/run does)' : false;

export interface Virtuoso {
  /** Its SPARQL endpoint (queries and updates). */
  url: string;
  /** The graphs it holds of its own (system graphs), which Entia's checks leave out. */
  ownGraphs: string[];
  /** Loads an N-Quads file (`.nq` or `.nq.gz`) with Virtuoso's bulk loader, as the README's recipe says. */
  bulkLoad(file: string): Promise<void>;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    }).on('error', fail);
  });
}

/** The settings the README's recipe gives: larger thread stacks (a sync request is long), no row cap on results. */
function ini(dir: string, sqlPort: number, httpPort: number): string {
  return `[Database]
DatabaseFile = ${dir}/virtuoso.db
ErrorLogFile = ${dir}/virtuoso.log
LockFile = ${dir}/virtuoso.lck
TransactionFile = ${dir}/virtuoso.trx
xa_persistent_file = ${dir}/virtuoso.pxa
[TempDatabase]
DatabaseFile = ${dir}/virtuoso-temp.db
TransactionFile = ${dir}/virtuoso-temp.trx
[Parameters]
ServerPort = 127.0.0.1:${sqlPort}
DisableUnixSocket = 1
ServerThreadSize = 4000000
MainThreadSize = 4000000
FutureThreadSize = 4000000
NumberOfBuffers = 60000
MaxDirtyBuffers = 45000
DirsAllowed = ${dir}
[HTTPServer]
ServerPort = 127.0.0.1:${httpPort}
ServerRoot = ${dir}
ServerThreads = 10
HTTPThreadSize = 4000000
Charset = UTF-8
[SPARQL]
ResultSetMaxRows = 1000000
MaxQueryExecutionTime = 60
MaxQueryCostEstimationTime = 0
`;
}

function isql(port: number, statement: string): Promise<void> {
  const binary = join(dirname(VIRTUOSO), 'isql-vt');
  return new Promise((done, fail) => execFile(binary, [`127.0.0.1:${port}`, 'dba', 'dba', `exec=${statement}`],
    (error, stdout, stderr) => (error || /Error/.test(stdout + stderr) ? fail(new Error(`isql: ${stdout}${stderr}`)) : done())));
}

export async function startVirtuoso(): Promise<Virtuoso> {
  const dir = mkdtempSync(join(tmpdir(), 'entia-virtuoso-'));
  const [sqlPort, httpPort] = [await freePort(), await freePort()];
  writeFileSync(join(dir, 'virtuoso.ini'), ini(dir, sqlPort, httpPort));
  const child: ChildProcess = spawn(VIRTUOSO, ['+foreground', '+configfile', join(dir, 'virtuoso.ini')], { cwd: dir, stdio: 'ignore' });
  let exited = false;
  child.once('exit', () => { exited = true; });
  const url = `http://127.0.0.1:${httpPort}/sparql`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) throw new Error(`Virtuoso stopped while starting (see ${dir}/virtuoso.log)`);
    const res = await fetch(`${url}?query=${encodeURIComponent('ASK {}')}`).catch(() => null);
    if (res?.ok) break;
    if (Date.now() > deadline) throw new Error('Virtuoso did not start within 60 s');
    await new Promise((r) => setTimeout(r, 200));
  }
  await isql(sqlPort, 'GRANT SPARQL_UPDATE TO "SPARQL";');
  const graphs = await fetch(url, { method: 'POST', headers: { accept: 'application/sparql-results+json' },
    body: new URLSearchParams({ query: 'SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }' }) });
  const ownGraphs = ((await graphs.json()) as any).results.bindings.map((b: any) => b.g.value as string);
  return {
    url,
    ownGraphs,
    async bulkLoad(file: string) {
      // The loader reads only from the directories virtuoso.ini allows: this engine's own.
      copyFileSync(file, join(dir, basename(file)));
      await isql(sqlPort, `ld_dir('${dir}', '${basename(file)}', 'urn:entia:bulk-load-default'); rdf_loader_run(); checkpoint;`);
    },
    async stop() {
      if (!exited) {
        child.kill('SIGKILL');
        await new Promise((r) => child.once('exit', r));
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
