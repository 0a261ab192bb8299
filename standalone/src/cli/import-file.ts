/**
 * `skills import`: streams an ndjson file to POST /admin/v1/skills:import
 * (never holding it in memory: the API accepts up to 50 MB) while a progress
 * bar on stderr shows bytes sent, items (lines) sent and the rate.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { SingleBar } from 'cli-progress';
import type { SkillsAdminClient } from '@skills/client';

const NEWLINE = 0x0a;

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export interface ImportOptions {
  /** where the bar is drawn; the CLI uses stderr so stdout stays the result */
  stream?: NodeJS.WriteStream;
}

/** Streams `file` to the import endpoint; resolves to the number of items the API imported. */
export async function importFile(
  client: SkillsAdminClient,
  file: string,
  options: ImportOptions = {},
): Promise<number> {
  const { size } = await stat(file);
  const bar = new SingleBar({
    format: 'importing [{bar}] {percentage}% | {sent} / {size} | {items} items | {rate}',
    stream: options.stream ?? process.stderr,
    hideCursor: true,
    clearOnComplete: false,
  });
  const started = Date.now();
  let sent = 0;
  let items = 0;
  let lastByte = NEWLINE;
  const payload = () => {
    const seconds = Math.max((Date.now() - started) / 1000, 0.001);
    return {
      sent: formatBytes(sent),
      size: formatBytes(size),
      items,
      rate: `${formatBytes(sent / seconds)}/s, ${Math.round(items / seconds)} items/s`,
    };
  };
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      sent += chunk.length;
      for (const byte of chunk) if (byte === NEWLINE) items += 1;
      lastByte = chunk[chunk.length - 1] ?? lastByte;
      bar.update(sent, payload());
      callback(null, chunk);
    },
    flush(callback) {
      // A last line without a trailing newline is still an item.
      if (lastByte !== NEWLINE) items += 1;
      bar.update(sent, payload());
      callback();
    },
  });
  bar.start(size, 0, payload());
  try {
    const body = Readable.toWeb(createReadStream(file).pipe(counter)) as ReadableStream<Uint8Array>;
    return await client.importSkills(body);
  } finally {
    bar.stop();
  }
}
