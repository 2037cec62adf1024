// The layer rules (README, "Architecture"), checked on the real import graph (like Wikibase's ArchitectureTest).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { it } from 'node:test';

it('src/ follows the layer rules and has no import cycles', () => {
  let output = '';
  try {
    output = execFileSync('npx', ['depcruise', 'src', '--config', '.dependency-cruiser.cjs', '--output-type', 'err'],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string };
    assert.fail(`layer violations:\n${err.stdout ?? ''}${err.stderr ?? ''}`);
  }
  assert.match(output, /no dependency violations found/);
});
