import fs from 'node:fs';
import path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import {
  headingAnchors,
  isExternal,
  markdownLinks,
  navFiles,
} from './markdown';

// src/ → tools/docs-check → tools → the repository
const ROOT = path.resolve(__dirname, '../../..');
const abs = (file: string) => path.join(ROOT, file);
const rel = (file: string) =>
  path.relative(ROOT, file).split(path.sep).join('/');
const read = (file: string) => fs.readFileSync(abs(file), 'utf8');
const mdIn = (dir: string) =>
  fs.existsSync(abs(dir))
    ? fs
        .readdirSync(abs(dir))
        .filter(name => name.endsWith('.md'))
        .sort()
        .map(name => `${dir}/${name}`)
    : [];
const readmesIn = (dir: string) =>
  fs
    .readdirSync(abs(dir))
    .sort()
    .map(name => `${dir}/${name}/README.md`)
    .filter(file => fs.existsSync(abs(file)));

/** The Markdown files whose links are checked, relative to the repository. */
const MARKDOWN_FILES = [
  'README.md',
  'CONTRIBUTING.md',
  ...mdIn('docs'),
  ...readmesIn('plugins'),
  ...readmesIn('packages'),
  ...readmesIn('tools'),
  'bench/README.md',
  'browser-tests/README.md',
];

const anchorCache = new Map<string, Set<string>>();
function anchorsOf(file: string): Set<string> {
  let anchors = anchorCache.get(file);
  if (!anchors) {
    anchors = headingAnchors(fs.readFileSync(file, 'utf8'));
    anchorCache.set(file, anchors);
  }
  return anchors;
}

/** Why a relative link from `from` (absolute) is broken, or undefined if it is not. */
function linkProblem(from: string, target: string): string | undefined {
  if (target === '') return 'empty link';
  const hash = target.indexOf('#');
  const rawPath = (hash < 0 ? target : target.slice(0, hash)).replace(
    /\?.*$/,
    '',
  );
  let filePath: string;
  let anchor: string | undefined;
  try {
    filePath = decodeURIComponent(rawPath);
    anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
  } catch {
    return 'bad percent-encoding';
  }
  const dest =
    filePath === '' ? from : path.resolve(path.dirname(from), filePath);
  if (dest !== ROOT && !dest.startsWith(ROOT + path.sep))
    return 'outside the repository';
  if (!fs.existsSync(dest)) return 'no such file or directory';
  if (
    anchor === undefined ||
    !dest.endsWith('.md') ||
    fs.statSync(dest).isDirectory()
  ) {
    return undefined;
  }
  return anchorsOf(dest).has(anchor)
    ? undefined
    : `no heading #${anchor} in ${rel(dest)}`;
}

/** `file:line → target (reason)` for every broken relative link in a Markdown file. */
function brokenLinks(file: string): string[] {
  const broken: string[] = [];
  for (const { line, target } of markdownLinks(read(file))) {
    if (isExternal(target)) continue;
    const problem = linkProblem(abs(file), target);
    if (problem) broken.push(`${file}:${line} → ${target} (${problem})`);
  }
  return broken;
}

describe('Markdown links', () => {
  it('checks the root, docs and package Markdown files', () => {
    expect(MARKDOWN_FILES).toEqual(
      expect.arrayContaining(['README.md', 'CONTRIBUTING.md', 'docs/index.md']),
    );
    expect(MARKDOWN_FILES.length).toBeGreaterThan(10);
  });

  it.each(MARKDOWN_FILES)(
    '%s: every relative link and anchor resolves',
    file => {
      expect(brokenLinks(file)).toEqual([]);
    },
  );
});

describe('TechDocs', () => {
  const mkdocs = () => parse(read('mkdocs.yml'));

  it('every file in the mkdocs nav exists under docs/', () => {
    const nav = navFiles(mkdocs().nav);
    expect(nav.length).toBeGreaterThan(0);
    expect(nav.filter(file => !fs.existsSync(abs(`docs/${file}`)))).toEqual([]);
  });

  it('every docs/*.md and docs/spec/*.md is in the mkdocs nav', () => {
    const nav = new Set(
      navFiles(mkdocs().nav).map(file => path.posix.normalize(file)),
    );
    const missing = [...mdIn('docs'), ...mdIn('docs/spec')].filter(
      file => !nav.has(file.slice('docs/'.length)),
    );
    expect(missing).toEqual([]);
  });

  it("catalog-info.yaml's techdocs-ref is dir:. with mkdocs.yml (docs_dir: docs) beside it", () => {
    const refs = parseAllDocuments(read('catalog-info.yaml'))
      .map(
        doc => doc.toJS()?.metadata?.annotations?.['backstage.io/techdocs-ref'],
      )
      .filter(ref => ref !== undefined);
    expect(refs).toEqual(['dir:.']);
    const mkdocsPath = path.join(
      ROOT,
      refs[0].slice('dir:'.length),
      'mkdocs.yml',
    );
    expect(fs.existsSync(mkdocsPath)).toBe(true);
    expect(parse(fs.readFileSync(mkdocsPath, 'utf8')).docs_dir).toBe('docs');
    expect(fs.statSync(abs('docs')).isDirectory()).toBe(true);
  });
});
