import { checkSkillChangeEvent, type Logger } from '@skills/common';
import { indexedStateOf } from '../domain/indexed-state';
import type { SearchEngine } from '../engines/search-engine';
import type { DeadLetterRepository } from '../store/dead-letter.repository';
import { INDEXER_GROUP } from './indexer';

export interface ReplayResult {
  /** applied (or already superseded by a newer version) and removed from the store */
  replayed: number;
  /** still refused by the engine; kept */
  failed: number;
}

/**
 * Applies every dead letter of `group` again, one at a time, once the cause
 * was fixed (an engine mapping, a bug in a new release). Events carry the
 * full item state and engines skip versions they already passed, so a letter
 * whose item changed since is harmless: it counts as replayed. A letter the
 * engine still refuses stays in the store, and so does one that breaks the
 * event contract: a replay never lets in what the consumer refused.
 */
export async function replayDeadLetters(options: {
  store: DeadLetterRepository;
  engine: SearchEngine;
  logger: Logger;
  group?: string;
}): Promise<ReplayResult> {
  const group = options.group ?? INDEXER_GROUP;
  const result: ReplayResult = { replayed: 0, failed: 0 };
  let after = '0';
  for (;;) {
    const page = await options.store.list(group, 100, after);
    if (page.length === 0) return result;
    for (const letter of page) {
      after = letter.id;
      const check = checkSkillChangeEvent(letter.event);
      if (!check.ok) {
        result.failed += 1;
        options.logger.warn({ id: letter.id, reason: check.reason }, 'dead letter breaks the event contract; kept');
        continue;
      }
      try {
        await options.engine.apply([indexedStateOf(check.event)]);
        await options.store.remove([letter.id]);
        result.replayed += 1;
      } catch (err) {
        result.failed += 1;
        options.logger.warn({ err, id: letter.id, eventId: check.event.eventId }, 'dead letter still refused; kept');
      }
    }
  }
}
