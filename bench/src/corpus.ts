/**
 * `--corpus FILE`: a real catalog as NDJSON (gzipped or not, told apart by
 * the gzip magic bytes, not the name). Every line becomes an import line the
 * admin import accepts (import-line.ts); the corpus' own file is never
 * trusted to fit the import's limits.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { cleanImportLine, clip, IMPORT_LIMITS, type ImportLine } from './import-line';

export interface CorpusStats {
  /** non-empty lines read */
  read: number;
  /** lines that were not a JSON object or had neither name nor slug */
  skipped: number;
  /** lines whose import form differs from the record beyond dropping unknown fields (clipped, slugged, defaulted) */
  cleaned: number;
  /** lines whose slug an earlier line already had: renamed, since the import would keep only the last of them */
  renamed: number;
}

const IMPORTED_FIELDS = ['slug', 'name', 'description', 'type', 'category', 'status', 'tags'] as const;

/** Whether the import line says what the record said, for the fields the import knows. */
function sameAsRecord(line: ImportLine, record: Record<string, unknown>): boolean {
  return IMPORTED_FIELDS.every((field) => {
    const given = record[field];
    if (given === undefined) return field === 'status' || field === 'description' || field === 'tags';
    return JSON.stringify(given) === JSON.stringify(line[field]);
  });
}

/** Builds the catalog line by line (pure: tested without files). */
export class CorpusBuilder {
  readonly lines: ImportLine[] = [];
  readonly stats: CorpusStats = { read: 0, skipped: 0, cleaned: 0, renamed: 0 };
  private readonly slugs = new Set<string>();

  /** Adds one NDJSON line; blank lines are not lines. */
  add(text: string): void {
    if (text.trim() === '') return;
    this.stats.read += 1;
    let record: unknown;
    try {
      record = JSON.parse(text);
    } catch {
      record = undefined;
    }
    const line = cleanImportLine(record, `item-${this.stats.read}`);
    if (!line) {
      this.stats.skipped += 1;
      return;
    }
    if (!sameAsRecord(line, record as Record<string, unknown>)) this.stats.cleaned += 1;
    if (this.slugs.has(line.slug)) {
      // `<slug>-<n>` with the smallest n free, clipped so the suffix survives the slug limit
      let n = 2;
      while (this.slugs.has(withSuffix(line.slug, n))) n += 1;
      line.slug = withSuffix(line.slug, n);
      this.stats.renamed += 1;
    }
    this.slugs.add(line.slug);
    this.lines.push(line);
  }
}

function withSuffix(slug: string, n: number): string {
  const suffix = `-${n}`;
  return `${clip(slug, IMPORT_LIMITS.slug - suffix.length)}${suffix}`;
}

const GZIP_MAGIC = [0x1f, 0x8b];

async function isGzip(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(2), 0, 2, 0);
    return bytesRead === 2 && buffer[0] === GZIP_MAGIC[0] && buffer[1] === GZIP_MAGIC[1];
  } finally {
    await handle.close();
  }
}

/** The first `limit` lines of `file` (all when undefined) as import lines; streamed, so a large file stops being read at `limit`. */
export async function readCorpus(
  file: string,
  limit: number | undefined,
  progress: (text: string, done: boolean) => void,
): Promise<{ lines: ImportLine[]; stats: CorpusStats; gzip: boolean }> {
  const gzip = await isGzip(file);
  const raw = createReadStream(file);
  const input = gzip ? raw.pipe(createGunzip()) : raw;
  const builder = new CorpusBuilder();
  const reader = createInterface({ input, crlfDelay: Infinity });
  // .pipe() does not pass the file's errors on to gunzip, so readline would just end: keep the error to throw it
  let failure: Error | undefined;
  raw.on('error', (err: Error) => {
    failure ??= err;
    reader.close();
  });
  try {
    for await (const text of reader) {
      if (limit !== undefined && builder.stats.read >= limit) break;
      builder.add(text);
      if (builder.stats.read % 10_000 === 0) progress(`corpus: ${builder.stats.read} lines read`, false);
    }
  } catch (err) {
    // readline rejects with its input's error (e.g. a truncated gzip): say which file
    failure ??= err instanceof Error ? err : new Error(String(err));
  } finally {
    reader.close();
    raw.destroy();
  }
  if (failure) throw new Error(`cannot read corpus ${file}: ${failure.message}`);
  const { stats } = builder;
  progress(
    `corpus: ${builder.lines.length} items from ${stats.read} lines of ${file}${gzip ? ' (gzip)' : ''}; ${stats.cleaned} cleaned, ${stats.renamed} renamed, ${stats.skipped} skipped`,
    true,
  );
  return { lines: builder.lines, stats, gzip };
}
