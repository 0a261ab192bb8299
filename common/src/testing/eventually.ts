/**
 * Waits for what happens after a request returns (an event indexed, a row
 * relayed, a log line written): calls `probe` every `everyMs` until it
 * yields something other than undefined or false, and resolves with that.
 * A probe that throws (a failed `expect`) counts as "not yet"; past
 * `withinMs` its last error is thrown, else one naming `what`.
 */
export async function eventually<T>(
  probe: () => T | Promise<T>,
  what = 'the condition',
  withinMs = 15_000,
  everyMs = 20,
): Promise<Exclude<T, undefined | false>> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    let failure: unknown;
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value as Exclude<T, undefined | false>;
    } catch (err) {
      failure = err;
    }
    if (Date.now() > deadline) throw failure ?? new Error(`${what}: not reached within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
