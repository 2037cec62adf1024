// The `entia` command as tests start it: the built JavaScript (dist/, what `npm start` runs) when every source
// file's build output is at least as new as the file (as in CI, where `npm ci` builds before the tests), else
// the TypeScript source through tsx, so that a test never runs code older than the source it tests. A start
// through tsx compiles the command's modules first: `entia --help` took 2.9 s so against 1.1 s from dist/ on a
// 2-core machine, and the suite starts the command some hundreds of times.
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(import.meta.dirname, '../..');
const SRC = join(ROOT, 'src');
const DIST = join(ROOT, 'dist');

/** Whether each .ts/.tsx file under src/ has its .js under dist/, written after the source was. */
function builtFromThisSource(dir = SRC): boolean {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!builtFromThisSource(path)) return false;
    } else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
      const output = join(DIST, relative(SRC, path)).replace(/\.tsx?$/, '.js');
      try {
        if (statSync(output).mtimeMs < statSync(path).mtimeMs) return false;
      } catch {
        return false;
      }
    }
  }
  return true;
}

/** Node's arguments that run `entia`; append the command's own. */
export const ENTIA: readonly string[] = builtFromThisSource()
  ? [join(DIST, 'cli/main.js')]
  : ['--import', import.meta.resolve('tsx'), join(SRC, 'cli/main.ts')];
