// Starting a worker thread on a module beside the caller. Built, the thread runs NAME.js; run from the
// TypeScript sources (tests, the bench, `node --import tsx`), a thread does not inherit the loader, so it
// registers tsx before loading NAME.ts.
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** `beside`: the caller's `import.meta.url`; `name`: the module's file name without its extension. */
export function startThread(beside: string, name: string, options: WorkerOptions = {}): Worker {
  const fromSource = beside.endsWith('.ts');
  const entry = new URL(fromSource ? `./${name}.ts` : `./${name}.js`, beside);
  if (!fromSource) return new Worker(entry, options);
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  return new Worker(`import(${tsx}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); })`,
    { ...options, eval: true });
}
