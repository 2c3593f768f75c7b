/**
 * The front matter of the pages added as Markdown, kept from one build to the next by the hash of
 * each page file's bytes (`front-matter.json` beside the build record). The build record's file
 * hashes (`file-hashes.ts`) already say, without reading a file, whether it changed; with this
 * cache a build reads a page file only when its bytes are new to it, or to render the page (its
 * body). One string changed on the scaling site: 1,078 page files read, split and validated on
 * every build before, none after.
 *
 * What a file's entry holds comes from its bytes alone (the fields, and the lines problems are
 * reported at), so an entry found by the hash is what reading the file would give; the file's
 * name, language and path come from where it is. A file that fails to read as a page is never
 * kept: it is read, and its problems reported, every time.
 *
 *   const cache = frontMatterCache(outDir, standing.fileHash);
 *   loadContentPages(contentDir, cache.read);   // hashes known: no page file read
 *   … build, publish … ; cache.save();          // the entries of the files read this time
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { type ContentPage, type PageReader, readContentPage, readPageSource } from '../../site/markdown/content-pages.ts';
import { bodyOf } from '../../site/markdown/front-matter.ts';
import type { Lang } from '../../site/languages.ts';
import { NAV_PLACEMENTS } from '../../site/routes.ts';
import { cacheDirOf } from './output-store.ts';
import { writeRecordFile } from '../../files/record-file.ts';
import { READ_ONCE, rowsByKey } from './record-columns.ts';

/** What a page file's bytes give: everything of a `ContentPage` but where the file is and its body. */
type Entry = Pick<ContentPage, 'slug' | 'title' | 'description' | 'nav' | 'navLabel' | 'navOrder' | 'bodyLine' | 'fieldLines'>;

/**
 * An entry as the file keeps it: one row of plain fields, checked in one pass (record-columns.ts:
 * the scaling site keeps 1,100 entries, which zod's parse of each took 6 ms to read); `nav` is ''
 * for none, and the field lines are fields of the row.
 */
const keptRows = rowsByKey({
  slug: 'string',
  title: 'string',
  description: 'string',
  nav: 'string',
  navLabel: 'string',
  navOrder: 'number',
  bodyLine: 'number',
  titleLine: 'number',
  descriptionLine: 'number',
  slugLine: 'number',
});
type Row = z.infer<typeof keptRows>[string];

const cacheSchema = z.object({ version: z.literal(2), pages: keptRows });

const cacheFile = (outDir: string) => join(cacheDirOf(outDir), 'front-matter.json');

const isNavPlacement = (nav: string): nav is (typeof NAV_PLACEMENTS)[number] => (NAV_PLACEMENTS as readonly string[]).includes(nav);

/**
 * The page a row keeps, for the file `file` of `lang` named `name`; none when its `nav` is no
 * placement (the file is read instead). Made field by field, without spreading an entry: this runs
 * for each of the scaling site's 1,100 page files, in a process that never warms up.
 */
function keptPage(row: Row, file: string, lang: Lang, name: string): ContentPage | undefined {
  const nav = row.nav;
  if (nav !== '' && !isNavPlacement(nav)) return undefined;
  const fieldLines = { title: row.titleLine, description: row.descriptionLine, slug: row.slugLine };
  const body = () => bodyOf(readPageSource(file));
  const { slug, title, description, navLabel, navOrder, bodyLine } = row;
  return nav === '' ? { name, lang, file, slug, title, description, navLabel, navOrder, bodyLine, fieldLines, body } : { name, lang, file, slug, title, description, nav, navLabel, navOrder, bodyLine, fieldLines, body };
}

/** The row that keeps `entry`. */
function rowOf({ nav, fieldLines, ...entry }: Entry): Row {
  return { ...entry, nav: nav ?? '', titleLine: fieldLines.title, descriptionLine: fieldLines.description, slugLine: fieldLines.slug };
}

/** The entries kept by the last build into `outDir` (each made an entry when a build asks for it); none when there are none or they cannot be read. */
function keptEntries(outDir: string): Map<string, Row> {
  try {
    const kept = cacheSchema.safeParse(JSON.parse(readFileSync(cacheFile(outDir), 'utf8')), READ_ONCE);
    return new Map(kept.success ? Object.entries(kept.data.pages) : []);
  } catch {
    return new Map();
  }
}

/** What a page's file gives (its entry here), fields in a fixed order: the page cache hashes it too (`page-inputs.ts`). */
export function frontMatterEntry(page: ContentPage): Entry {
  const { slug, title, description, nav, navLabel, navOrder, bodyLine, fieldLines } = page;
  // Two literals, not a spread of `nav` when there is one: asked for each page file by every build.
  return nav ? { slug, title, description, nav, navLabel, navOrder, bodyLine, fieldLines } : { slug, title, description, navLabel, navOrder, bodyLine, fieldLines };
}

/** The page files' front matter for a build into `outDir`, each file known by `fileHash` (the build record's hashes). */
export function frontMatterCache(outDir: string, fileHash: (path: string) => string): { read: PageReader; save(): void } {
  const kept = keptEntries(outDir);
  const used = new Map<string, Row>();
  let fromFiles = 0;
  return {
    read(file, lang, name) {
      const hash = fileHash(file);
      const row = kept.get(hash);
      const page = row && keptPage(row, file, lang, name);
      if (page) {
        used.set(hash, row!);
        return page;
      }
      const read = readContentPage(file, lang, name);
      fromFiles++;
      if (!Array.isArray(read)) used.set(hash, rowOf(frontMatterEntry(read)));
      return read;
    },
    /** Keeps the entries of this build's page files for the next build (those of files gone or changed are dropped); writes nothing when they are the kept ones. */
    save() {
      // Every entry came from the cache and every cached one was used: the file already says this.
      if (fromFiles === 0 && used.size === kept.size) return;
      writeRecordFile(cacheFile(outDir), JSON.stringify({ version: 2, pages: Object.fromEntries(used) }));
    },
  };
}
