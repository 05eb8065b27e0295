/**
 * Waits until `check` holds, polling every `intervalMs`; throws naming `what` after `timeoutMs`.
 * For state another part reaches in its own time (a broker delivery, a batch commit), never
 * for a fixed delay.
 */
export const until = async (
  check: () => Promise<boolean> | boolean,
  {
    timeoutMs = 5_000,
    intervalMs = 20,
    what = 'condition',
  }: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<void> => {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`${what} not reached within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
};
