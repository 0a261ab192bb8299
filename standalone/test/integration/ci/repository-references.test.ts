/**
 * The repository stands on its own (docs/architecture.md "The repository
 * stands on its own"): no tracked file may send a maintainer to a path
 * outside the clone, to an issue tracker's numbers, or to a document the
 * clone does not hold. The rules are general, so the samples below name
 * nothing real; this file alone is not scanned, since they break the rules on purpose.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename, join, posix } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..', '..');
const SELF = 'standalone/test/integration/ci/repository-references.test.ts';

interface Clone {
  /** whether the clone holds or builds `path` (relative to its root): a tracked file or folder, or one git ignores */
  holds(path: string): boolean;
  /** the names of the Markdown files it tracks */
  documents: ReadonlySet<string>;
}

/** A relative path as written: one or more `../` and what follows. */
const CLIMBING_PATH = /(?:^|[^.\w/@-])((?:\.\.\/)+[\w@.-][\w@./-]*)/g;
/** A document named in capitals (`NOTES.md`), or a section of one cited without its file (`PLAN §4`). */
const CAPITALS_DOCUMENT = /\b([A-Z][A-Z0-9_-]{2,}\.md)\b|\b[A-Z][A-Z0-9_-]{2,} §\s?\d/g;
const WORKPLACE_PATH = /(?:^|[\s'"`(=:])\/(?:work|home|Users)\//;
const ISSUE_NUMBERS = [/\b(?:issues?|pull request|PR) ?#?\d+\b/i, /(?:^|[\s([])#\d{1,5}(?![\w;])/];

/** Prose: a Markdown file, or a comment line of code. */
const isProse = (path: string, line: string) => path.endsWith('.md') || /^\s*(?:\/\/|\/?\*|#)/.test(line);

/**
 * A relative path leaves the clone when it climbs above the root from the
 * file's folder. In prose it must also name something the clone holds: a
 * comment's `../x` that names nothing points at a folder beside the clone.
 * A string in code may name what does not exist (a path-traversal probe).
 */
function outsidePath(file: string, line: string, clone: Clone): boolean {
  return [...line.matchAll(CLIMBING_PATH)].some(([, written = '']) => {
    const target = posix.normalize(posix.join(posix.dirname(file), written.replace(/[.,;:)'"`]+$/, '')));
    return target.startsWith('..') || (isProse(file, line) && !clone.holds(target.replace(/\/$/, '')));
  });
}

const outsideDocument = (line: string, clone: Clone) =>
  [...line.matchAll(CAPITALS_DOCUMENT)].some(([, name]) => name === undefined || !clone.documents.has(name));

/** `file:line: what — the line`, for every line of `text` that breaks a rule. */
export function outsideReferences(path: string, text: string, clone: Clone): string[] {
  const rules: Array<[string, (line: string) => boolean]> = [
    ['a path outside the clone', (line) => outsidePath(path, line, clone)],
    ['an absolute path of a workplace', (line) => WORKPLACE_PATH.test(line)],
    ['a document the clone does not hold', (line) => outsideDocument(line, clone)],
    ['an issue number', (line) => ISSUE_NUMBERS.some((pattern) => pattern.test(line))],
  ];
  return text
    .split('\n')
    .flatMap((line, index) =>
      rules
        .filter(([, breaks]) => breaks(line))
        .map(([what]) => `${path}:${index + 1}: ${what} — ${line.trim().slice(0, 160)}`),
    );
}

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' });
}

/** Tracked text files (a NUL byte marks a binary one), and what the clone holds. */
function readClone(): { files: Array<{ path: string; text: string }>; clone: Clone } {
  const paths = git('ls-files', '-z')
    .split('\0')
    .filter((path) => path !== '');
  const held = new Set(paths.flatMap((path) => path.split('/').map((_, i, parts) => parts.slice(0, i + 1).join('/'))));
  const ignored = (path: string) => {
    try {
      git('check-ignore', '-q', '--no-index', path);
      return true;
    } catch {
      return false;
    }
  };
  // an import names a module without its extension
  const holds = (path: string) => held.has(path) || paths.some((p) => p.startsWith(`${path}.`)) || ignored(path);
  const clone = {
    holds,
    documents: new Set(paths.filter((path) => path.endsWith('.md')).map((path) => basename(path))),
  };
  const files = paths.flatMap((path) => {
    if (path === SELF) return [];
    const bytes = readFileSync(join(ROOT, path));
    return bytes.subarray(0, 8000).includes(0) ? [] : [{ path, text: bytes.toString('utf8') }];
  });
  return { files, clone };
}

describe('the repository', () => {
  it('cites nothing outside itself: no path beside or above it, no issue number, no document it lacks', () => {
    const { files, clone } = readClone();
    expect(files.map((f) => f.path)).toEqual(
      expect.arrayContaining(['README.md', 'docs/architecture.md', 'package.json']),
    );
    expect(files.flatMap((f) => outsideReferences(f.path, f.text, clone))).toEqual([]);
  });

  it('tells each kind of outside reference apart from what merely looks like one', () => {
    const clone: Clone = {
      holds: (path) => ['docs', 'docs/api.md', 'common/src/index'].includes(path),
      documents: new Set(['README.md', 'api.md']),
    };
    const found = (line: string, path = 'docs/x.md') =>
      outsideReferences(path, line, clone).map((f) => f.split(': ')[1]?.split(' — ')[0]);
    expect(found('read ../../corpora/catalog.ndjson.gz')).toEqual(['a path outside the clone']);
    expect(found('the contract is in ../notes/api.md')).toEqual(['a path outside the clone']);
    expect(found(' * as ../notes/plan.md says', 'gateway/src/x.ts')).toEqual(['a path outside the clone']);
    expect(found("cwd: '/home/someone/skills'")).toEqual(['an absolute path of a workplace']);
    expect(found('pages the way search pages (PLAN.md §3)')).toEqual(['a document the clone does not hold']);
    expect(found('open sign-up (PLAN §7)')).toEqual(['a document the clone does not hold']);
    expect(found('the goals of issue 28')).toEqual(['an issue number']);
    expect(found('fixed in #28')).toEqual(['an issue number']);
    // not references: a key format, a counter's label, a colour, paths the clone holds, a probe string in code
    expect(found('PKCS#8 PEM; database#10; color: #333; see ../docs/api.md, README.md and api.md')).toEqual([]);
    expect(found("import { x } from '../../common/src/index';", 'gateway/src/x.ts')).toEqual([]);
    expect(found("const probe = '../../etc/passwd';", 'gateway/test/unit/x.test.ts')).toEqual([]);
  });
});
