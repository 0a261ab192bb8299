/** Polls `probe` every 50 ms until it finds something: records written at the next flush, not in the request. */
export async function eventually<T>(probe: () => Promise<T | undefined>, withinMs = 8_000): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`not recorded within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
