/** A failure the user caused (unknown user, bad argument, bad ENTIA_DB): printed without a stack. */
export class CliError extends Error {
  /** 2 for a usage error (wrong arguments), 1 for anything else. */
  constructor(message: string, readonly exitCode = 1) {
    super(message);
  }
}
