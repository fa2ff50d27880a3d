/** A mistake on the command line: reported with a hint to `--help` and exit code 2, never as an API failure. */
export class UsageError extends Error {
  constructor(
    message: string,
    /** The command whose help to point to, e.g. `viewers export`. */
    readonly command?: string,
  ) {
    super(message);
    this.name = "UsageError";
  }
}
