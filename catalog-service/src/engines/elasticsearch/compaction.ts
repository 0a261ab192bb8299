/**
 * Merges the index into one segment once a bulk of writes has gone quiet.
 *
 * Every refreshed batch is a segment of its own, and a search works through
 * every segment: its term lookups and prefix expansions run once per
 * segment. An import of 100,000 items leaves 25 to 35 segments and the merge
 * policy settles near 14; the long-tail mix then took 6.2–8.7 ms a search on
 * the node, against 3.0–3.6 ms on one segment (docs/performance.md).
 *
 * A force merge with `wait_for_completion: false` runs as a task on the node
 * while searches and writes go on. The reference advises it for indices no
 * longer written because a segment over 5 GB (`max_merged_segment`) is never
 * merged again: this one is only asked while the index is below half of
 * that, so the merged segment stays one the merge policy keeps merging.
 * https://elastic.co/docs/api/doc/elasticsearch/operation/operation-indices-forcemerge
 * (`index.merge.policy.max_merged_segment`: MergePolicyConfig.java in elastic/elasticsearch)
 */
import type { Client } from '@elastic/elasticsearch';
import type { Logger } from '@skills/common';
import { errorSummary } from './retry';

export interface CompactionOptions {
  /** items written since the last merge before one is worth it */
  afterItems: number;
  /** how long writes must have stopped */
  quietMs: number;
}

export const DEFAULT_COMPACTION: CompactionOptions = { afterItems: 10_000, quietMs: 2_000 };

/** Half of `index.merge.policy.max_merged_segment` (5 GB): the largest index merged into one segment. */
export const COMPACT_BELOW_BYTES = 2.5 * 1024 ** 3;

export class Compaction {
  private pending = 0;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly client: Client,
    private readonly index: string,
    private readonly logger: Logger,
    private readonly options: CompactionOptions,
  ) {}

  /** `count` items were just written: the merge waits until writes have been quiet for `quietMs`. */
  noteWritten(count: number): void {
    if (this.closed || count === 0) return;
    this.pending += count;
    if (this.pending < this.options.afterItems) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.merge(), this.options.quietMs);
    // a pending merge must not keep a stopping process alive
    this.timer.unref();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
  }

  /** Best effort: a failure is logged, and the next bulk tries again. */
  private async merge(): Promise<void> {
    this.timer = undefined;
    const written = this.pending;
    this.pending = 0;
    try {
      const stats = await this.client.indices.stats({ index: this.index, metric: ['store', 'segments'] });
      const bytes = stats._all.primaries?.store?.size_in_bytes ?? 0;
      const segments = stats._all.primaries?.segments?.count ?? 0;
      if (segments <= 1) return;
      if (bytes >= COMPACT_BELOW_BYTES) {
        this.logger.info({ bytes, segments }, 'index too large to merge into one segment; the merge policy keeps it');
        return;
      }
      const res = await this.client.indices.forcemerge({
        index: this.index,
        max_num_segments: 1,
        wait_for_completion: false,
      });
      this.logger.info(
        { written, segments, bytes, task: res.task },
        'index merging into one segment after a bulk of writes',
      );
    } catch (err) {
      this.logger.warn(errorSummary(err), 'could not merge the index after a bulk of writes');
    }
  }
}
