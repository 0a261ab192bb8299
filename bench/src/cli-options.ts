/** `npm run bench` options, parsed and defaulted (pure: unit-tested). */
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import type { Vocabulary } from './catalog';

export type SearchCacheMode = 'both' | 'on' | 'off';
/** both: the memory run, then the Elasticsearch one */
export type BenchEngine = 'memory' | 'elasticsearch' | 'both';

export interface BenchOptions {
  quick: boolean;
  /** catalog size; undefined with a corpus means the whole file */
  items: number | undefined;
  corpus: string | undefined;
  vocabulary: Vocabulary;
  durationSec: number;
  warmupSec: number;
  connections: number[];
  /** 0 skips the index-lag measurement */
  lagWrites: number;
  searchCache: SearchCacheMode;
  /** catalog-service's SEARCH_ENGINE; elasticsearch runs the Elasticsearch mode (elasticsearch-bench.ts) */
  engine: BenchEngine;
  /** the node of the Elasticsearch mode; undefined: local-servers' 9.x node, started if needed */
  elasticsearchUrl: string | undefined;
  quality: boolean;
  /** the overload run (overload-bench.ts) instead of the throughput phases */
  overload: boolean;
  profile: boolean;
  keep: boolean;
  /** print BENCH_USAGE and run nothing */
  help: boolean;
}

/**
 * The real-vocabulary corpus the repository carries: 100,000 npm packages
 * (names, summaries, downloads) shaped as catalog items. Named relative to
 * where the bench runs (the repository's root under `npm run bench`), as a
 * result file records it.
 */
export const NPM_CORPUS = relative(process.cwd(), join(__dirname, '..', 'data', 'npm-catalog-100k.ndjson.gz'));

/** What `npm run bench -- --help` prints. */
export const BENCH_USAGE = `npm run bench -- [options]     (DATABASE_URL=postgres://… for a fresh database on that server; PGlite otherwise)

  --corpus FILE                  NDJSON catalog, gzipped or not (default: the generated catalog)
  --vocabulary generated|broad|npm  the catalog's words: generated; broad (30 words, each in ~15 % of the items);
                                 npm, the real package names of bench/data/npm-catalog-100k.ndjson.gz (a corpus)
  --items N                      catalog size (default 100,000; --quick 5,000; a corpus: all its lines)
  --quick                        5,000 items, 3 s runs: a check that it works, not a figure
  --duration S                   seconds per measured run, after a warm-up (default 10)
  --connections A,B,C            connection counts (default 1,16,64; the targets are read at 64)
  --search-cache both|on|off     search phases with the caches on, off, or both (default both; off with elasticsearch)
  --engine memory|elasticsearch|both
                                 catalog-service's search engine (default memory); elasticsearch: import, then the
                                 long tail via the gateway beside one multi_match per request sent straight to the node
                                 (and --quality); no direct, repeated, collection, feed or lag phases; both: the memory
                                 run, then the elasticsearch one (caches off there unless --search-cache on)
  --elasticsearch-url URL        the node of --engine elasticsearch or both (default: local-servers' 9.x, started if needed)
  --quality                      MRR@10 of judgment sets drawn from the catalog
  --overload                     instead of the phases above: 1,000 connections (or --connections N) of searches with
                                 valid keys for 30 s (or --duration), judged on 401s, 5xx, Retry-After and the
                                 admitted p99; then 200 sign-ups at once from as many addresses, and 200 from one,
                                 while one client searches (p99 ≤ 1 s)
  --lag-writes N                 writes timed for the index lag (default 200; 0 skips it)
  --profile                      the services run with --cpu-prof into bench/results/profiles/
  --keep                         leave the server database in place
  --help                         this text
`;

function positiveInt(name: string, value: string, min = 1): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < min)
    throw new Error(`--${name} must be an integer ≥ ${min}, got "${value}"`);
  return n;
}

function oneOf<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  const found = allowed.find((a) => a === value);
  if (!found) throw new Error(`--${name} must be one of ${allowed.join(', ')}, got "${value}"`);
  return found;
}

export function parseBenchOptions(args: string[]): BenchOptions {
  const { values } = parseArgs({
    args,
    options: {
      items: { type: 'string' },
      corpus: { type: 'string' },
      vocabulary: { type: 'string' },
      quick: { type: 'boolean', default: false },
      duration: { type: 'string' },
      connections: { type: 'string' },
      'lag-writes': { type: 'string' },
      'search-cache': { type: 'string' },
      engine: { type: 'string' },
      'elasticsearch-url': { type: 'string' },
      quality: { type: 'boolean', default: false },
      overload: { type: 'boolean', default: false },
      profile: { type: 'boolean', default: false },
      keep: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const quick = values.quick ?? false;
  const words = oneOf('vocabulary', values.vocabulary ?? 'generated', ['generated', 'broad', 'npm'] as const);
  // a corpus brings its own words: a vocabulary with it would silently mean nothing
  if (values.corpus && values.vocabulary)
    throw new Error('--vocabulary applies to the generated catalog, not to --corpus');
  const corpus = words === 'npm' ? NPM_CORPUS : values.corpus;
  const vocabulary = words === 'npm' ? 'generated' : words;
  const defaultItems = corpus && !quick ? undefined : quick ? 5_000 : 100_000;
  const engine = oneOf('engine', values.engine ?? 'memory', ['memory', 'elasticsearch', 'both'] as const);
  const elasticsearchUrl = values['elasticsearch-url'];
  const overload = values.overload ?? false;
  if (
    overload &&
    (engine !== 'memory' ||
      values.quality ||
      values['lag-writes'] !== undefined ||
      values['search-cache'] !== undefined)
  ) {
    throw new Error(
      '--overload runs the deployed defaults on the memory engine: no --engine, --quality, --lag-writes or --search-cache with it',
    );
  }
  if (overload && values.connections?.includes(',')) throw new Error('--overload takes one connection count');
  if (elasticsearchUrl !== undefined && engine === 'memory')
    throw new Error('--elasticsearch-url needs --engine elasticsearch or both');
  // the Elasticsearch mode measures no index lag: a count asked for would silently mean nothing
  if (engine === 'elasticsearch' && values['lag-writes'] !== undefined)
    throw new Error('--lag-writes does not apply to --engine elasticsearch');
  if (elasticsearchUrl !== undefined && !/^https?:\/\/[^/\s]+\/?$/.test(elasticsearchUrl)) {
    throw new Error(`--elasticsearch-url must be a node's http(s) origin, got "${elasticsearchUrl}"`);
  }
  return {
    quick,
    items: values.items === undefined ? defaultItems : positiveInt('items', values.items),
    corpus,
    vocabulary,
    durationSec:
      values.duration === undefined ? (quick ? 3 : overload ? 30 : 10) : positiveInt('duration', values.duration),
    warmupSec: quick ? 1 : 3,
    connections: (values.connections ?? (overload ? '1000' : '1,16,64'))
      .split(',')
      .map((c) => positiveInt('connections', c.trim())),
    lagWrites:
      values['lag-writes'] === undefined ? (quick ? 50 : 200) : positiveInt('lag-writes', values['lag-writes'], 0),
    // Elasticsearch is measured as the baseline beside it runs: every search reaching the node
    searchCache: oneOf('search-cache', values['search-cache'] ?? (engine === 'elasticsearch' ? 'off' : 'both'), [
      'both',
      'on',
      'off',
    ] as const),
    engine,
    elasticsearchUrl: elasticsearchUrl?.replace(/\/$/, ''),
    quality: values.quality ?? false,
    overload,
    profile: values.profile ?? false,
    keep: values.keep ?? false,
    help: values.help ?? false,
  };
}
