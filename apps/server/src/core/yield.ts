/**
 * Lets waiting I/O run: a chain of awaits on PGlite (synchronous WebAssembly on this thread)
 * never reaches the event loop, so a background writer that runs batch after batch would hold
 * device messages and alarm commits back for its whole run. Awaited between batches, it caps
 * that wait at one batch.
 */
export const yieldToEventLoop = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));
