/**
 * What an unexpected error may put in a log line. Query errors carry the statement's parameters
 * (password hashes, phone numbers, names): the statement and the database's own code and message
 * stay, the values never do.
 */
export const redactedError = (error: unknown): Record<string, unknown> => {
  if (error === null || typeof error !== 'object') return { message: String(error) };
  const e = error as {
    name?: unknown;
    message?: unknown;
    code?: unknown;
    query?: unknown;
    cause?: unknown;
    stack?: unknown;
  };
  const cause = e.cause as { code?: unknown; message?: unknown } | undefined;
  const strip = (text: unknown) => (typeof text === 'string' ? text.replace(/\n?params:[\s\S]*$/i, '') : undefined);
  return {
    type: typeof e.name === 'string' ? e.name : 'Error',
    message: strip(e.message),
    code: e.code ?? cause?.code,
    ...(typeof e.query === 'string' ? { query: e.query } : {}),
    // The database quotes offending values in its reasons ("invalid input …: \"x\"", "Key (a)=(x)").
    ...(cause
      ? {
          cause: strip(cause.message)
            ?.replace(/"[^"]*"/g, '"…"')
            .replace(/=\([^)]*\)/g, '=(…)'),
        }
      : {}),
    stack: typeof e.stack === 'string' ? strip(e.stack.split('\n').slice(0, 8).join('\n')) : undefined,
  };
};
