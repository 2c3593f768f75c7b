/**
 * The front matter cache: a build with the cache reads a page file only when its bytes are new to
 * the cache, or when it renders the page; what it gives for a known file is what reading the file
 * gives, and a file that fails to read as a page is read (and reported) every time.
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { frontMatterCache } from '../../../../cli/pipeline/cache/front-matter-cache.ts';
import { FileHashes } from '../../../../cli/pipeline/cache/file-hashes.ts';
import { loadContentPages } from '../../../../cli/site/markdown/content-pages.ts';

const folders: string[] = [];
afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A parent folder holding a content folder with `files` (`'en/x.md': text`) and the output folder's name. */
function site(files: Record<string, string>): { contentDir: string; outDir: string; write(path: string, text: string): string } {
  const root = mkdtempSync(join(tmpdir(), 'front-matter-cache-'));
  folders.push(root);
  const contentDir = join(root, 'content');
  const write = (path: string, text: string) => {
    mkdirSync(join(contentDir, 'pages', path.split('/')[0]!), { recursive: true });
    writeFileSync(join(contentDir, 'pages', path), text);
    return join(contentDir, 'pages', path);
  };
  for (const [path, text] of Object.entries(files)) write(path, text);
  return { contentDir, outDir: join(root, 'dist'), write };
}

const page = (front: string, body: string) => `---\n${front}\n---\n${body}`;
const CASE_STUDY = page('title: Case study\ndescription: How a bank masks its data\nslug: case-study\nnav: header', '\n# Case study\n\nA bank masks {{brand}} data.\n');

/** The pages as a build sees them: every field, and each body. */
const seen = (pages: ReturnType<typeof loadContentPages>['pages']) => pages.map((p) => ({ ...p, body: p.body() }));

describe('frontMatterCache', () => {
  it('gives a known file what reading it gives, and the body read when asked', () => {
    const { contentDir, outDir } = site({ 'en/case-study.md': CASE_STUDY });
    const first = frontMatterCache(outDir, (path) => new FileHashes().of(path));
    const fresh = loadContentPages(contentDir, first.read);
    first.save();
    const cached = loadContentPages(contentDir, frontMatterCache(outDir, (path) => new FileHashes().of(path)).read);
    expect(seen(cached.pages)).toEqual(seen(fresh.pages));
    expect(seen(cached.pages)).toEqual(seen(loadContentPages(contentDir).pages));
    expect(cached.pages[0]!.body()).toBe('\n# Case study\n\nA bank masks {{brand}} data.\n');
  });

  it('takes the front matter from the cache for bytes it knows, without parsing the file', () => {
    const { contentDir, outDir, write } = site({ 'en/case-study.md': CASE_STUDY });
    const first = frontMatterCache(outDir, () => 'hash-of-the-first-bytes');
    loadContentPages(contentDir, first.read);
    first.save();
    // Other bytes under the same hash: only the cache can give the old title.
    write('en/case-study.md', page('title: Another title\ndescription: Another\nslug: another', '\nOther body.\n'));
    const again = loadContentPages(contentDir, frontMatterCache(outDir, () => 'hash-of-the-first-bytes').read);
    expect(again.pages.map((p) => [p.title, p.slug])).toEqual([['Case study', 'case-study']]);
    // New bytes, a new hash: the file is read.
    const changed = loadContentPages(contentDir, frontMatterCache(outDir, () => 'hash-of-new-bytes').read);
    expect(changed.pages.map((p) => [p.title, p.slug, p.body()])).toEqual([['Another title', 'another', '\nOther body.\n']]);
  });

  it('keeps no entry for a file that is not a valid page, so its problem is reported on every build', () => {
    const { contentDir, outDir } = site({ 'en/broken.md': page('title: Broken\nslug: Not_A_Slug', '\nText.\n') });
    for (let build = 0; build < 2; build++) {
      const cache = frontMatterCache(outDir, () => 'same-bytes');
      const loaded = loadContentPages(contentDir, cache.read);
      cache.save();
      expect(loaded.pages).toEqual([]);
      expect(loaded.problems.map((p) => p.code)).toEqual(['front_matter_invalid', 'front_matter_invalid']);
    }
  });

  it('leaves its file as it is after a build that used exactly the kept entries, and drops the entry of a page file gone', () => {
    const { contentDir, outDir, write } = site({ 'en/case-study.md': CASE_STUDY, 'en/other.md': page('title: Other\ndescription: Other page\nslug: other', '\nText.\n') });
    const byPath = (path: string) => path.split('/').at(-1)!;
    const keptFile = join(outDir, '..', '.sitegen-cache', 'dist', 'front-matter.json');
    const first = frontMatterCache(outDir, byPath);
    loadContentPages(contentDir, first.read);
    first.save();
    const written = statSync(keptFile).ino;
    const unchanged = frontMatterCache(outDir, byPath);
    loadContentPages(contentDir, unchanged.read);
    unchanged.save();
    expect(statSync(keptFile).ino).toBe(written);
    rmSync(join(contentDir, 'pages', 'en', 'other.md'));
    const fewer = frontMatterCache(outDir, byPath);
    loadContentPages(contentDir, fewer.read);
    fewer.save();
    // The page comes back with other bytes under its old hash: nothing kept gives the old title.
    write('en/other.md', page('title: Other again\ndescription: Other page\nslug: other', '\nText.\n'));
    expect(loadContentPages(contentDir, frontMatterCache(outDir, byPath).read).pages.map((p) => p.title).sort()).toEqual(['Case study', 'Other again']);
  });

  it('starts empty from a kept file it cannot read', () => {
    const { contentDir, outDir } = site({ 'en/case-study.md': CASE_STUDY });
    const cache = frontMatterCache(outDir, () => 'h');
    loadContentPages(contentDir, cache.read);
    cache.save();
    const keptFile = join(outDir, '..', '.sitegen-cache', 'dist', 'front-matter.json');
    const titles = () => loadContentPages(contentDir, frontMatterCache(outDir, () => 'h').read).pages.map((p) => p.title);
    writeFileSync(keptFile, '{"version": 2, "pages": {"h": {"title": 3}}}');
    expect(titles()).toEqual(['Case study']);
    // Every field of its kind, but a navigation placement that does not exist: the file is read.
    const row = (nav: string) => ({ slug: 'kept', title: 'Kept title', description: 'Kept', nav, navLabel: 'Kept', navOrder: 0, bodyLine: 6, titleLine: 2, descriptionLine: 3, slugLine: 4 });
    writeFileSync(keptFile, JSON.stringify({ version: 2, pages: { h: row('sidebar') } }));
    expect(titles()).toEqual(['Case study']);
    writeFileSync(keptFile, JSON.stringify({ version: 2, pages: { h: row('header') } }));
    expect(titles()).toEqual(['Kept title']);
  });
});
