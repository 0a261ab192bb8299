/**
 * Waits until `condition` holds (a request seen, a process restarted),
 * asking it every `everyMs`; past `withinMs` it throws, naming `what`.
 * Unlike `eventually`, a condition that throws fails at once.
 */
export async function until(
  condition: () => boolean | Promise<boolean>,
  what = 'the condition',
  withinMs = 30_000,
  everyMs = 20,
): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not within ${withinMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
