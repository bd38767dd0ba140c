/** A command line the CLI cannot run: main() prints it with a pointer to --help and exits 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}
