import { BENCH_USAGE, NPM_CORPUS, parseBenchOptions } from '../../src/cli-options';
import { readCorpus } from '../../src/corpus';

describe('bench options', () => {
  it('defaults like before, takes a whole corpus unless --items or --quick says otherwise', () => {
    expect(parseBenchOptions([])).toEqual(
      expect.objectContaining({
        items: 100_000,
        durationSec: 10,
        warmupSec: 3,
        connections: [1, 16, 64],
        lagWrites: 200,
        searchCache: 'both',
        quality: false,
        vocabulary: 'generated',
      }),
    );
    expect(parseBenchOptions(['--quick'])).toEqual(
      expect.objectContaining({ items: 5_000, durationSec: 3, warmupSec: 1, lagWrites: 50 }),
    );
    expect(parseBenchOptions(['--corpus', 'f.gz']).items).toBeUndefined();
    expect(parseBenchOptions(['--corpus', 'f.gz', '--items', '20000', '--search-cache', 'off', '--quality'])).toEqual(
      expect.objectContaining({ corpus: 'f.gz', items: 20_000, searchCache: 'off', quality: true }),
    );
    expect(parseBenchOptions(['--vocabulary', 'broad', '--connections', '64', '--lag-writes', '0'])).toEqual(
      expect.objectContaining({ vocabulary: 'broad', connections: [64], lagWrites: 0 }),
    );
  });

  it('reads the npm corpus the repository carries for --vocabulary npm, whole unless told', async () => {
    expect(NPM_CORPUS).toBe('bench/data/npm-catalog-100k.ndjson.gz');
    expect(parseBenchOptions(['--vocabulary', 'npm', '--quality'])).toEqual(
      expect.objectContaining({ corpus: NPM_CORPUS, items: undefined, vocabulary: 'generated', quality: true }),
    );
    const { lines, gzip } = await readCorpus(NPM_CORPUS, 3, () => undefined);
    expect(gzip).toBe(true);
    expect(lines.map((l) => l.slug)).toEqual(['tim-wx-sdk', 'cavy', expect.any(String)]);
    expect(() => parseBenchOptions(['--vocabulary', 'npm', '--corpus', 'f.gz'])).toThrow(/not to --corpus/);
  });

  it('runs the Elasticsearch mode with the caches off unless asked, on the node given or the local one', () => {
    expect(parseBenchOptions([])).toEqual(expect.objectContaining({ engine: 'memory', elasticsearchUrl: undefined }));
    expect(parseBenchOptions(['--engine', 'elasticsearch'])).toEqual(
      expect.objectContaining({ engine: 'elasticsearch', elasticsearchUrl: undefined, searchCache: 'off' }),
    );
    expect(
      parseBenchOptions([
        '--engine',
        'elasticsearch',
        '--elasticsearch-url',
        'http://127.0.0.1:9201/',
        '--search-cache',
        'on',
      ]),
    ).toEqual(
      expect.objectContaining({
        engine: 'elasticsearch',
        elasticsearchUrl: 'http://127.0.0.1:9201',
        searchCache: 'on',
      }),
    );
    expect(() => parseBenchOptions(['--engine', 'solr'])).toThrow(
      /--engine must be one of memory, elasticsearch, both/,
    );
    expect(parseBenchOptions(['--engine', 'both'])).toEqual(
      expect.objectContaining({ engine: 'both', searchCache: 'both' }),
    );
    // a URL without the mode would be silently ignored
    expect(() => parseBenchOptions(['--elasticsearch-url', 'http://127.0.0.1:9201'])).toThrow(
      /needs --engine elasticsearch or both/,
    );
    expect(() => parseBenchOptions(['--engine', 'elasticsearch', '--elasticsearch-url', '127.0.0.1:9201'])).toThrow(
      /--elasticsearch-url/,
    );
    expect(() => parseBenchOptions(['--engine', 'elasticsearch', '--lag-writes', '20'])).toThrow(
      /--lag-writes does not apply/,
    );
  });

  it('refuses what it cannot honour', () => {
    expect(() => parseBenchOptions(['--search-cache', 'maybe'])).toThrow(/--search-cache must be one of both, on, off/);
    expect(() => parseBenchOptions(['--vocabulary', 'tiny'])).toThrow(/--vocabulary/);
    expect(() => parseBenchOptions(['--corpus', 'f', '--vocabulary', 'broad'])).toThrow(/not to --corpus/);
    expect(() => parseBenchOptions(['--items', '1e3x'])).toThrow(/--items/);
    expect(() => parseBenchOptions(['--explain'])).toThrow();
  });

  it('answers --help with a usage that names every option it accepts', () => {
    expect(parseBenchOptions(['--help']).help).toBe(true);
    expect(parseBenchOptions([]).help).toBe(false);
    const flags = [
      'corpus',
      'vocabulary',
      'items',
      'quick',
      'duration',
      'connections',
      'search-cache',
      'engine',
      'elasticsearch-url',
      'quality',
      'overload',
      'lag-writes',
      'profile',
      'keep',
      'help',
    ];
    for (const flag of flags) expect(BENCH_USAGE).toContain(`--${flag}`);
    // and nothing it names is refused: every documented flag parses
    const documented = [...BENCH_USAGE.matchAll(/^ {2}--([a-z-]+)/gm)].map((m) => m[1]);
    expect(documented.sort()).toEqual([...flags].sort());
  });
});
