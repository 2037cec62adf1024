// Domain unit tests: run a validator and return the Problem it reports.
import assert from 'node:assert/strict';
import { ProblemError, type Problem } from '../../src/domain/problems.js';

export function problemOf(fn: () => unknown): Problem {
  try {
    fn();
  } catch (e) {
    if (e instanceof ProblemError) return e.problem;
    throw e;
  }
  assert.fail('expected a problem');
}
