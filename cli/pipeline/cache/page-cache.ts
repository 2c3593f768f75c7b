import { FAST_LEVELS, isCompressible } from '../../assets/precompress.ts';
import type { Lang } from '../../site/languages.ts';
import { contentPageId } from '../../site/routes.ts';
import type { LoadedContent } from '../load-content.ts';
import type { PageRoute, RenderedDocument, ReusePage } from '../render-pages.ts';
import type { PageRecord, PreviousBuild } from './output-store.ts';
import { lastChanged, pageContentHash } from './page-changes.ts';
import { digest, type FileHash, markdownHash, stringsHash } from './page-inputs.ts';

/** What a page's precompressed copies depend on besides its HTML: the levels and the compressors' versions. */
const COMPRESSION = JSON.stringify([FAST_LEVELS, process.versions.zlib ?? '', process.versions.brotli ?? '']);
/** The hashes `compressedHash` gave, by HTML hash: a kept page's files are asked for twice in a build. */
const compressedHashes = new Map<string, [gz: string, br: string]>();

/** The content hashes recorded for a page's precompressed copies (`.gz`, `.br`): of its HTML's hash, the levels and the compressors. */
function compressedHash(hash: string): [gz: string, br: string] {
  if (!compressedHashes.has(hash)) compressedHashes.set(hash, [digest(hash, 'gz', COMPRESSION), digest(hash, 'br', COMPRESSION)]);
  return compressedHashes.get(hash)!;
}

/** A page's files in the output (the HTML, and its `.gz` and `.br` when it is worth compressing) with their content hashes. */
export function pageFiles(file: string, htmlHash: string, bytes: number): [string, string][] {
  const files: [string, string][] = [[file, htmlHash]];
  if (isCompressible(file, bytes)) {
    const [gz, br] = compressedHash(htmlHash);
    files.push([`${file}.gz`, gz], [`${file}.br`, br]);
  }
  return files;
}

/**
 * What the build cache knows about pages: which may stay as the previous build wrote them, and
 * the records of this build's pages for the next one.
 */
export interface PageCache {
  /** For the render stage: true for a page whose inputs are all unchanged and whose files the output or the spare still holds. */
  reuse: ReusePage;
  /** The previous record of a page `reuse` kept. */
  previous(file: string): PageRecord;
  /** Records a page rendered by this build; it keeps its previous time of change when what a reader sees is the same. */
  rendered(route: PageRoute, document: RenderedDocument, html: { hash: string; skeleton: string; bytes: number }): PageRecord;
  /** Records a page kept from the previous build. */
  kept(file: string): PageRecord;
  /** This build's page records and the string lists they refer to, for the manifest. */
  records(): { pages: Record<string, PageRecord>; stringSets: string[][] };
}

/**
 * The page cache of a build: `shared` is the hash of what every page reads (page-inputs.ts
 * `sharedInputsHash`); a page's key adds its route, its Markdown and the values of the strings
 * it read (each Markdown file hashed by `fileHash`). With no previous build, no page is reused.
 * A page whose visible content changed is recorded as changed at `now` (page-changes.ts); its
 * social card's URL (`cardOf`) is part of its key.
 */
export function pageCache(previous: PreviousBuild, shared: string, content: LoadedContent, contentDir: string, fileHash?: FileHash, now = new Date(), cardOf: (path: string) => string = () => ''): PageCache {
  const manifest = previous.manifest;
  const contentPages = new Map(content.contentPages.map((p) => [`${p.lang} ${contentPageId(p.name)}`, p]));
  const keyOf = (route: PageRoute, strings: string) =>
    digest(shared, route.page, route.lang, route.path, route.canonical, cardOf(route.canonical), markdownHash(route, contentPages.get(`${route.lang} ${route.page}`), contentDir, fileHash), strings);

  // The strings hash of each (language, string list) pair, computed once: most pages share a list.
  const stringHashes = new Map<string, string>();
  const stringEntries = new Map<string, string>();
  const previousStrings = (lang: Lang, set: number) => {
    const id = `${lang} ${set}`;
    if (!stringHashes.has(id)) stringHashes.set(id, stringsHash(manifest!.stringSets[set] ?? [], lang, content.messages, stringEntries));
    return stringHashes.get(id)!;
  };
  const newStrings = new Map<string, string>();
  const currentStrings = (lang: Lang, set: number) => {
    const id = `${lang} ${set}`;
    if (!newStrings.has(id)) newStrings.set(id, stringsHash(stringSets[set]!, lang, content.messages, stringEntries));
    return newStrings.get(id)!;
  };

  const stringSets: string[][] = [];
  const setIndex = new Map<string, number>();
  const intern = (keys: readonly string[]) => {
    const sorted = [...keys].sort();
    const id = sorted.join('\n');
    if (!setIndex.has(id)) setIndex.set(id, stringSets.push(sorted) - 1);
    return setIndex.get(id)!;
  };
  const pages: Record<string, PageRecord> = {};

  return {
    reuse(route, file) {
      const record = manifest?.pages[file];
      if (!record || record.strings >= manifest!.stringSets.length) return false;
      // The spare is asked first: the build writes into it, so it is looked at anyway.
      const held = pageFiles(file, record.html, record.bytes).every(([f, hash]) => previous.spareFiles.hash(f) === hash || previous.outFiles.hash(f) === hash);
      return held && keyOf(route, previousStrings(route.lang, record.strings)) === record.key;
    },
    previous: (file) => manifest!.pages[file]!,
    rendered(route, document, html) {
      const strings = intern(document.strings);
      const key = keyOf(route, currentStrings(route.lang, strings));
      const visible = pageContentHash(document.html);
      const changed = lastChanged(manifest?.pages[document.file], visible, now);
      pages[document.file] = { key, strings, html: html.hash, skeleton: html.skeleton, bytes: html.bytes, content: visible, changed };
      return pages[document.file]!;
    },
    kept(file) {
      const record = manifest!.pages[file]!;
      pages[file] = { ...record, strings: intern(manifest!.stringSets[record.strings]!) };
      return pages[file]!;
    },
    records: () => ({ pages, stringSets }),
  };
}
