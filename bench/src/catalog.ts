/**
 * The catalog a bench run imports and queries, kept in memory as import
 * lines so the query mixes and the judgment sets draw from exactly what was
 * imported: a corpus file, the generated catalog, or its broad-vocabulary
 * variant.
 */
import { broadCatalog } from './broad-catalog';
import { generatedCatalog } from './catalog-generator';
import { readCorpus, type CorpusStats } from './corpus';
import type { ImportLine } from './import-line';

export type Vocabulary = 'generated' | 'broad';

export interface CatalogSource {
  /** where the items come from */
  kind: 'corpus' | Vocabulary;
  /** corpus file, when kind is corpus */
  file?: string;
  items: number;
  /** items whose status is active: what search should hold after the import */
  active: number;
  corpus?: CorpusStats;
}

export interface Catalog {
  source: CatalogSource;
  lines: ImportLine[];
}

export interface CatalogOptions {
  corpus?: string;
  /** catalog size; with a corpus, its first `items` lines (all when undefined) */
  items: number | undefined;
  vocabulary: Vocabulary;
  progress(text: string, done: boolean): void;
}

export function activeCount(lines: readonly ImportLine[]): number {
  return lines.reduce((n, line) => n + (line.status === 'active' ? 1 : 0), 0);
}

export async function loadCatalog(options: CatalogOptions): Promise<Catalog> {
  if (options.corpus) {
    const { lines, stats } = await readCorpus(options.corpus, options.items, options.progress);
    if (lines.length === 0) throw new Error(`corpus ${options.corpus} holds no usable line`);
    return {
      source: { kind: 'corpus', file: options.corpus, items: lines.length, active: activeCount(lines), corpus: stats },
      lines,
    };
  }
  const items = options.items ?? 100_000;
  const lines = options.vocabulary === 'broad' ? broadCatalog(items) : generatedCatalog(items);
  return { source: { kind: options.vocabulary, items, active: activeCount(lines) }, lines };
}

export function describeCatalog(source: CatalogSource): string {
  const what =
    source.kind === 'corpus'
      ? `corpus ${source.file}`
      : source.kind === 'broad'
        ? 'generated, broad vocabulary'
        : 'generated';
  return `${source.items.toLocaleString('en')} items (${source.active.toLocaleString('en')} active), ${what}`;
}
