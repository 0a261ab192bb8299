/**
 * The repository stands on its own: a maintainer who clones it has nothing
 * beside it, so no tracked file may send them to a path outside the clone
 * (a folder next to it, an absolute path of some machine), to an issue
 * tracker's numbers, or to a design brief the repository does not hold. A
 * decision the code relies on is written in docs/ and cited there.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..', '..');
/** This file names what it forbids. */
const SELF = 'standalone/test/integration/ci/repository-references.test.ts';

const FORBIDDEN: Array<[string, RegExp]> = [
  ['a folder beside the repository', /\.\.\/shared\b|\bshared\/(?:spec|data)\//],
  ['an absolute path of a workplace', /(?:^|[\s'"`(=:])\/work\//],
  ['a design brief outside the repository', /\bDESIGN(?:\.md\b| §)/],
  ['an issue number', /\b(?:issues?|pull request|PR) ?#?\d+\b/i],
  ['an issue number', /(?:^|[\s([])#\d{1,5}(?![\w;])/],
];

/** Tracked text files (a NUL byte marks a binary one). */
function trackedTextFiles(): Array<{ path: string; text: string }> {
  const paths = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0');
  return paths
    .filter((path) => path !== '' && path !== SELF)
    .flatMap((path) => {
      const bytes = readFileSync(join(ROOT, path));
      return bytes.subarray(0, 8000).includes(0) ? [] : [{ path, text: bytes.toString('utf8') }];
    });
}

/** `file:line: what — the line`, for every line of `text` that breaks a rule. */
export function outsideReferences(path: string, text: string): string[] {
  return text
    .split('\n')
    .flatMap((line, index) =>
      FORBIDDEN.filter(([, pattern]) => pattern.test(line)).map(
        ([what]) => `${path}:${index + 1}: ${what} — ${line.trim().slice(0, 160)}`,
      ),
    );
}

describe('the repository', () => {
  it('cites nothing outside itself: no path beside or above it, no issue number, no design brief it lacks', () => {
    const files = trackedTextFiles();
    expect(files.map((f) => f.path)).toEqual(
      expect.arrayContaining(['README.md', 'docs/architecture.md', 'package.json']),
    );
    expect(files.flatMap((f) => outsideReferences(f.path, f.text))).toEqual([]);
  });

  it('tells each kind of outside reference apart from what merely looks like one', () => {
    const found = (line: string) => outsideReferences('x.md', line).map((f) => f.split(': ')[1]?.split(' — ')[0]);
    expect(found('read ../shared/data/npm.ndjson.gz')).toEqual(['a folder beside the repository']);
    expect(found('the contract is shared/spec/skills-api.md')).toEqual(['a folder beside the repository']);
    expect(found("cwd: '/work/main'")).toEqual(['an absolute path of a workplace']);
    expect(found('pages the way search pages (DESIGN.md §3)')).toEqual(['a design brief outside the repository']);
    expect(found('open sign-up (DESIGN §7)')).toEqual(['a design brief outside the repository']);
    expect(found('the goals of issue 28')).toEqual(['an issue number']);
    expect(found('fixed in #28')).toEqual(['an issue number']);
    // not references: a key format, a counter's label, a colour, a path inside the repository
    expect(
      found('PKCS#8 PEM; database#10; color: #333; bench/data/npm-catalog-100k.ndjson.gz; docs/architecture.md'),
    ).toEqual([]);
  });
});
