/**
 * The sleep of a background loop (outbox relay, outbox pruner) between its
 * passes, which `wake()` cuts short so that stopping the loop never waits
 * out a whole interval.
 */
export class InterruptiblePause {
  private wakeCurrent?: () => void;

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.wakeCurrent = done;
    });
  }

  /** Ends the current sleep, if any, at once. */
  wake(): void {
    this.wakeCurrent?.();
  }
}
