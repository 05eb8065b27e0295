/** A start-up failure the operator can fix, told in one line without a stack trace. */
export class StartupError extends Error {
  override name = 'StartupError';
}
