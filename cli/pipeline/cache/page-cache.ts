import { FAST_LEVELS, isCompressible } from '../../assets/precompress.ts';
import type { Lang } from '../../site/languages.ts';
import { contentPageId } from '../../site/routes.ts';
import type { LoadedContent } from '../load-content.ts';
import type { PageInputs, PlanFiles, PreviousRecords, RecordedPage } from '../plan/build-plan.ts';
import type { PageRoute, RenderedDocument } from '../render-pages.ts';
import type { Manifest, PageRecord, PreviousBuild } from './output-store.ts';
import { lastChanged, pageContentHash } from './page-changes.ts';
import { digest, type FileHash, markdownHash, stringEntry, stringsHash } from './page-inputs.ts';

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
 * What the build cache knows about pages: the previous build's records and this build's inputs,
 * as the build plan reads them (plan/build-plan.ts decides which pages are kept), and the records
 * of this build's pages for the next one.
 */
export interface PageCache {
  /** The previous build's records; null when there are none. */
  previous: PreviousRecords | null;
  /** This build's inputs of a page, its strings over `keys`. */
  inputsOf(route: PageRoute, keys: readonly string[]): PageInputs;
  /** A string's value in this build (a short hash). */
  stringValue(lang: Lang, key: string): string;
  /** The output folders as the plan asks them: the output or the spare holds a page's files as recorded. */
  files: PlanFiles;
  /** The previous record of a page the plan kept. */
  recorded(file: string): PageRecord;
  /** Records a page rendered by this build; it keeps its previous time of change when what a reader sees is the same. */
  rendered(route: PageRoute, document: RenderedDocument, html: { hash: string; skeleton: string; bytes: number }): PageRecord;
  /** Records a page kept from the previous build. */
  kept(file: string, lang: Lang): PageRecord;
  /** This build's page records so far, by output file. */
  readonly pages: Readonly<Record<string, PageRecord>>;
  /** This build's page records, the string lists they refer to, what those strings say and the shared inputs, for the manifest. */
  records(): Pick<Manifest, 'pages' | 'stringSets' | 'stringValues' | 'shared'>;
}

/**
 * The page cache of a build: `shared` is what every page reads, by part (page-inputs.ts
 * `sharedInputs`); a page's own inputs are its route, its social card's URL (`cardOf`), its
 * Markdown (each file hashed by `fileHash`) and the values of the strings it read. With no
 * previous build, there are no records. A page whose visible content changed is recorded as
 * changed at `now` (page-changes.ts).
 */
export function pageCache(previous: PreviousBuild, shared: Record<string, string>, content: LoadedContent, contentDir: string, fileHash?: FileHash, now = new Date(), cardOf: (path: string) => string = () => ''): PageCache {
  const manifest = previous.manifest;
  const contentPages = new Map(content.contentPages.map((p) => [`${p.lang} ${contentPageId(p.name)}`, p]));
  // The strings hash of each (language, string list) pair, computed once: most pages share a list.
  const stringEntries = new Map<string, string>();
  const stringHashes = new Map<readonly string[], Map<Lang, string>>();
  const stringsOf = (lang: Lang, keys: readonly string[]) => {
    if (!stringHashes.has(keys)) stringHashes.set(keys, new Map());
    const byLang = stringHashes.get(keys)!;
    if (!byLang.has(lang)) byLang.set(lang, stringsHash(keys, lang, content.messages, stringEntries));
    return byLang.get(lang)!;
  };
  const inputsOf = (route: PageRoute, keys: readonly string[]): PageInputs => ({
    route: digest(route.page, route.lang, route.path, route.canonical),
    card: cardOf(route.canonical),
    markdown: markdownHash(route, contentPages.get(`${route.lang} ${route.page}`), contentDir, fileHash),
    strings: stringsOf(route.lang, keys),
  });
  const stringValue = (lang: Lang, key: string) => digest(stringEntry(key, lang, content.messages, stringEntries)).slice(0, 12);

  const stringSets: string[][] = [];
  const setIndex = new Map<string, number>();
  const intern = (keys: readonly string[]) => {
    const sorted = [...keys].sort();
    const id = sorted.join('\n');
    if (!setIndex.has(id)) setIndex.set(id, stringSets.push(sorted) - 1);
    return setIndex.get(id)!;
  };
  const pages: Record<string, PageRecord> = {};
  const setsOf = new Map<Lang, Set<number>>();
  const note = (lang: Lang, set: number) => {
    if (!setsOf.has(lang)) setsOf.set(lang, new Set());
    setsOf.get(lang)!.add(set);
  };

  const recordedPages = new Map<string, RecordedPage>();
  for (const [file, record] of Object.entries(manifest?.pages ?? {})) {
    const keys = manifest!.stringSets[record.strings];
    if (keys) recordedPages.set(file, { inputs: record.inputs, keys });
  }
  return {
    previous: manifest ? { shared: manifest.shared, pages: recordedPages, stringValue: (lang, key) => manifest.stringValues[lang]?.[key] } : null,
    inputsOf,
    stringValue,
    files: {
      holdsPage(file) {
        const record = manifest!.pages[file]!;
        // The spare is asked first: the build writes into it, so it is looked at anyway.
        return pageFiles(file, record.html, record.bytes).every(([f, hash]) => previous.spareFiles.hash(f) === hash || previous.outFiles.hash(f) === hash);
      },
    },
    recorded: (file) => manifest!.pages[file]!,
    rendered(route, document, html) {
      const strings = intern(document.strings);
      note(route.lang, strings);
      const visible = pageContentHash(document.html);
      const changed = lastChanged(manifest?.pages[document.file], visible, now);
      pages[document.file] = { inputs: inputsOf(route, stringSets[strings]!), strings, html: html.hash, skeleton: html.skeleton, bytes: html.bytes, content: visible, changed };
      return pages[document.file]!;
    },
    kept(file, lang) {
      const record = manifest!.pages[file]!;
      const strings = intern(manifest!.stringSets[record.strings]!);
      note(lang, strings);
      pages[file] = { ...record, strings };
      return pages[file]!;
    },
    pages,
    records() {
      const stringValues: Record<string, Record<string, string>> = {};
      for (const [lang, sets] of setsOf) {
        const values: Record<string, string> = (stringValues[lang] = {});
        for (const set of sets) for (const key of stringSets[set]!) values[key] ??= stringValue(lang, key);
      }
      return { pages, stringSets, stringValues, shared };
    },
  };
}
