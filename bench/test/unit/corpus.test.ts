import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { CorpusBuilder, readCorpus } from '../../src/corpus';
import { cleanImportLine, clip, IMPORT_LIMITS, ndjsonBody } from '../../src/import-line';

const npmLine = {
  slug: 'tim-wx-sdk',
  name: 'Tim Wx Sdk',
  description: 'Tencent Cloud Chat SDK for Wechat Mini Program',
  type: 'plugin',
  category: 'data',
  tags: ['tencent', 'cloud'],
  downloads: 643,
};

describe('import lines from a corpus', () => {
  it('keeps the fields the import accepts, downloads when they are a count, and drops the others', () => {
    expect(cleanImportLine(npmLine, 'item-1')).toEqual({
      slug: 'tim-wx-sdk',
      name: 'Tim Wx Sdk',
      description: 'Tencent Cloud Chat SDK for Wechat Mini Program',
      type: 'plugin',
      category: 'data',
      status: 'active',
      tags: ['tencent', 'cloud'],
      downloads: 643,
    });
    expect(cleanImportLine({ ...npmLine, downloads: -3 }, 'item-1')).not.toHaveProperty('downloads');
    expect(cleanImportLine({ ...npmLine, downloads: '12' }, 'item-1')).not.toHaveProperty('downloads');
  });

  it('clips and repairs what the import would refuse, the same way every time', () => {
    const line = cleanImportLine(
      {
        slug: '@Scope/Some_Package',
        name: `  ${'n'.repeat(250)}  `,
        description: 'd'.repeat(6000),
        type: 'library',
        category: 'Data & Science',
        status: 'deleted',
        tags: ['  ok ', '', 42, 't'.repeat(60), 'ok', ...Array.from({ length: 30 }, (_, i) => `t${i}`)],
      },
      'item-7',
    );
    expect(line).toEqual(
      expect.objectContaining({
        slug: 'scope-some-package',
        type: 'skill',
        category: 'data-science',
        status: 'active',
      }),
    );
    expect(line?.name).toHaveLength(IMPORT_LIMITS.name);
    expect(line?.description).toHaveLength(IMPORT_LIMITS.description);
    expect(line?.tags).toHaveLength(IMPORT_LIMITS.tags);
    expect(line?.tags.slice(0, 3)).toEqual(['ok', '42', 't'.repeat(50)]);
    // a slug of nothing usable falls back to the name, then to the line's own name
    expect(cleanImportLine({ name: 'Ünïcode Näme', category: 'x' }, 'item-3')?.slug).toBe('unicode-name');
    expect(cleanImportLine({ name: '日本語', category: 'x' }, 'item-3')?.slug).toBe('item-3');
    expect(cleanImportLine({ name: 'x' }, 'item-3')?.category).toBe('uncategorised');
    expect(cleanImportLine({ description: 'no name, no slug' }, 'item-3')).toBeUndefined();
    expect(cleanImportLine([1, 2], 'item-3')).toBeUndefined();
  });

  it('never cuts a character in half', () => {
    expect(clip('ab😀', 3)).toBe('ab');
    expect(clip('ab😀', 4)).toBe('ab😀');
  });

  it('counts cleaned, renamed and skipped lines, and keeps slugs unique', () => {
    const builder = new CorpusBuilder();
    for (const text of [
      JSON.stringify(npmLine),
      '',
      'not json',
      JSON.stringify(npmLine),
      JSON.stringify({ ...npmLine, category: 'Big Data' }),
    ])
      builder.add(text);
    expect(builder.lines.map((l) => l.slug)).toEqual(['tim-wx-sdk', 'tim-wx-sdk-2', 'tim-wx-sdk-3']);
    expect(builder.stats).toEqual({ read: 4, skipped: 1, cleaned: 1, renamed: 2 });
    expect(ndjsonBody(builder.lines).split('\n')).toHaveLength(4);
  });
});

describe('readCorpus', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-corpus-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const text = Array.from({ length: 5 }, (_, i) => JSON.stringify({ ...npmLine, slug: `pkg-${i}` })).join('\n');

  it('reads gzip by its magic bytes, whatever the name, and plain NDJSON, up to a limit', async () => {
    const gz = join(dir, 'corpus.ndjson');
    writeFileSync(gz, gzipSync(text));
    const plain = join(dir, 'corpus.ndjson.gz');
    writeFileSync(plain, `${text}\r\n`);
    const quiet = () => undefined;
    const fromGz = await readCorpus(gz, 3, quiet);
    expect(fromGz.gzip).toBe(true);
    expect(fromGz.lines.map((l) => l.slug)).toEqual(['pkg-0', 'pkg-1', 'pkg-2']);
    const fromPlain = await readCorpus(plain, undefined, quiet);
    expect(fromPlain.gzip).toBe(false);
    expect(fromPlain.lines).toHaveLength(5);
  });

  it('fails on a truncated gzip instead of returning part of it silently', async () => {
    const broken = join(dir, 'broken.gz');
    const whole = gzipSync(text.repeat(50));
    writeFileSync(broken, whole.subarray(0, whole.length - 20));
    await expect(readCorpus(broken, undefined, () => undefined)).rejects.toThrow(/cannot read corpus .*broken\.gz/);
    await expect(readCorpus(join(dir, 'missing.ndjson'), undefined, () => undefined)).rejects.toThrow(/ENOENT/);
  });
});
