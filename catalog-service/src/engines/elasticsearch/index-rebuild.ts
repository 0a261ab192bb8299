/**
 * A reindex of the Elasticsearch engine: it builds a new versioned index from
 * the system of record and swaps the alias to it in one `_aliases` call, while
 * the engine keeps answering from the old one (elasticsearch.engine.ts).
 *
 * While it builds, the new index also carries the alias `<alias>-reindex`,
 * which every apply (in any replica) writes through first, and a heartbeat in
 * its mapping's `_meta` (reindex-marker.ts). A reindex whose process died
 * leaves that alias behind; the stopped heartbeat tells, and the first replica
 * to notice deletes its index.
 */
import type { Client } from '@elastic/elasticsearch';
import type { CatalogItemState, Logger } from '@skills/common';
import type { ReindexProgress } from '../search-engine';
import { indexMeta, reindexAliasOf, swapAliasActions, versionedIndexName, type indexDefinition } from './index-mapping';
import { abandonedIndices, heartbeatMeta, type MarkerMappings } from './reindex-marker';
import { errorSummary } from './retry';
import { ElasticsearchWriteError, type WriteOptions, type WriteOutcome } from './bulk-writer';

/** What a rebuild uses of its engine: the client, the retries, the writes and the index layout. */
export interface RebuildParts {
  client: Client;
  /** the alias readers and writers use */
  alias: string;
  logger: Logger;
  now: () => Date;
  /** how often a running reindex renews its heartbeat */
  heartbeatMs: number;
  /** a reindex marker whose heartbeat is older than this is abandoned */
  staleAfterMs: number;
  /** the index layout with the engine's vectors, carrying `meta` */
  definition: (meta: Record<string, string | number>) => ReturnType<typeof indexDefinition>;
  write: (index: string, items: CatalogItemState[], options: WriteOptions) => Promise<WriteOutcome>;
  /** the vectors the items' texts already have (vector-target.ts), if search by meaning is on */
  knownVectors: (items: CatalogItemState[]) => Promise<WriteOptions['vectors']>;
  retrying: <T>(operation: () => Promise<T>) => Promise<T>;
  aliasExists: (name: string) => Promise<boolean>;
  /** indices the alias points to now ([] when it does not exist yet) */
  aliasedIndices: () => Promise<string[]>;
  /** documents written to the live index, for compaction.ts */
  noteWritten: (count: number) => void;
}

export class IndexRebuild {
  /** alias of the index a reindex is filling, whichever replica runs it */
  readonly alias: string;
  /** when this replica last read the reindex marker's heartbeat (epoch ms) */
  private lastMarkerCheck = Number.NEGATIVE_INFINITY;

  constructor(private readonly parts: RebuildParts) {
    this.alias = reindexAliasOf(parts.alias);
  }

  /** Whether a reindex is building an index now (its alias exists). */
  running(): Promise<boolean> {
    return this.parts.aliasExists(this.alias);
  }

  /**
   * New index → every page of `source` → refresh → one `_aliases` call that
   * removes the old indices and adds the new one (atomic for readers) →
   * refresh again → delete the old indices. Searches use the old index until
   * the swap. On failure the new index is dropped and the alias is left
   * untouched.
   */
  async run(
    source: AsyncIterable<CatalogItemState[]>,
    onProgress?: (p: ReindexProgress) => void,
  ): Promise<ReindexProgress> {
    const { client, logger, now } = this.parts;
    if ((await this.running()) && !(await this.clearAbandoned())) {
      throw new Error(`a reindex is already building an index behind ${this.alias}`);
    }
    const target = versionedIndexName(this.parts.alias, now());
    // the reindex alias comes with the index, so writes reach it before the first page is read
    await this.parts.retrying(() =>
      client.indices.create({
        index: target,
        ...this.parts.definition({ ...heartbeatMeta(now()) }),
        aliases: { [this.alias]: {} },
      }),
    );
    logger.info({ index: target }, 'reindex started');
    const heartbeat = setInterval(() => void this.beat(target), this.parts.heartbeatMs);
    try {
      return await this.fillAndSwap(target, source, onProgress);
    } finally {
      clearInterval(heartbeat);
    }
  }

  private async fillAndSwap(
    target: string,
    source: AsyncIterable<CatalogItemState[]>,
    onProgress?: (p: ReindexProgress) => void,
  ): Promise<ReindexProgress> {
    const { client, logger, retrying } = this.parts;
    let indexed = 0;
    let previous: string[] = [];
    let swapSent = false;
    try {
      for await (const page of source) {
        const outcome = await this.parts.write(target, page, {
          requireAlias: false,
          vectors: await this.parts.knownVectors(page),
        });
        if (outcome.failures.length > 0) throw new ElasticsearchWriteError(target, outcome.failures);
        indexed += page.length;
        onProgress?.({ indexed });
      }
      await retrying(() => client.indices.refresh({ index: target }));
      previous = await this.parts.aliasedIndices();
      swapSent = true;
      await retrying(() =>
        client.indices.updateAliases({ actions: swapAliasActions(this.parts.alias, previous, target) }),
      );
    } catch (err) {
      // a swap whose answer was lost may have happened: then the new index is live and must stay
      const live = swapSent && (await this.parts.aliasedIndices().catch((): string[] => [])).includes(target);
      if (!live) {
        // deleting the index drops its reindex alias with it
        await client.indices
          .delete({ index: target }, { ignore: [404] })
          .catch((cleanupErr: unknown) =>
            logger.warn({ ...errorSummary(cleanupErr), index: target }, 'could not delete the abandoned index'),
          );
        throw err;
      }
    }
    // Writes that reached the new index through the reindex alias after the first refresh are
    // searchable only after the next one: made now, before the caller moves the cache generation.
    // The swap is done whatever it answers: failing here would leave the old indices behind and the
    // engine thinking its (now live) index outdated, for writes the scheduled refresh shows within 1 s.
    await retrying(() => client.indices.refresh({ index: target })).catch((err: unknown) =>
      logger.warn(
        { ...errorSummary(err), index: target },
        'could not refresh the new index after the swap; the scheduled refresh will',
      ),
    );
    logger.info({ index: target, previous, indexed }, 'alias swapped');
    this.parts.noteWritten(indexed);
    if (previous.length > 0) {
      // a leftover index wastes disk but serves nobody; never fail the reindex for it
      await retrying(() => client.indices.delete({ index: previous })).catch((err: unknown) =>
        logger.warn({ ...errorSummary(err), indices: previous }, 'could not delete the previous index'),
      );
    }
    return { indexed };
  }

  /** Renews the heartbeat of the reindex building `index`; a missed beat is only logged. */
  private async beat(index: string): Promise<void> {
    try {
      await this.parts.client.indices.putMapping({
        index,
        _meta: this.parts.definition({ ...heartbeatMeta(this.parts.now()) }).mappings?._meta ?? indexMeta(),
      });
    } catch (err) {
      this.parts.logger.warn({ ...errorSummary(err), index }, 'could not renew the reindex heartbeat');
    }
  }

  /**
   * Deletes the indices behind the reindex alias whose heartbeat stopped
   * (never one readers use). True when no reindex is running any more.
   */
  async clearAbandoned(): Promise<boolean> {
    const { client, now } = this.parts;
    this.lastMarkerCheck = now().getTime();
    const res = await this.parts.retrying(() =>
      client.indices.getMapping({ index: this.alias }, { ignore: [404], meta: true }),
    );
    if (res.statusCode === 404) return true;
    const marked: MarkerMappings = res.body;
    const abandoned = abandonedIndices(marked, now(), this.parts.staleAfterMs);
    if (abandoned.length === 0) return false;
    const live = await this.parts.aliasedIndices();
    const doomed = abandoned.filter((index) => !live.includes(index));
    if (doomed.length > 0) {
      await this.parts.retrying(() => client.indices.delete({ index: doomed }, { ignore: [404] }));
      this.parts.logger.warn({ indices: doomed }, 'deleted the index of an abandoned reindex');
    }
    return doomed.length === Object.keys(marked).length;
  }

  /**
   * Whether the reindex marker apply just saw is abandoned. Asked at most
   * once per heartbeat interval: in between, a marker counts as live (the
   * safe side: an extra write into an index that may be deleted).
   */
  async abandoned(): Promise<boolean> {
    if (this.parts.now().getTime() - this.lastMarkerCheck < this.parts.heartbeatMs) return false;
    return this.clearAbandoned();
  }
}
