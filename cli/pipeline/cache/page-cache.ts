import { FAST_LEVELS, isCompressible } from '../../assets/precompress.ts';
import { DEFAULT_LANG, type Lang } from '../../site/languages.ts';
import { localeFile } from '../../site/locales.ts';
import { contentPageLookup, type RoutePageId } from '../../site/routes.ts';
import type { PageInputs, PlanFiles, PreviousRecords, RecordedPage } from '../plan/build-plan.ts';
import type { Manifest, PageRecord, PreviousBuild } from './output-store.ts';
import { lastChanged, pageContentHash } from './page-changes.ts';
import { type CachedContent, digest, type FileHash, markdownHash, stringEntry, stringsHash } from './page-inputs.ts';

/** A page's route as the cache reads it (the pipeline's `PageRoute` has these fields). */
interface CachedRoute {
  page: RoutePageId | 'notFound';
  lang: Lang;
  canonical: string;
}

/** A rendered page as the cache records it (the render stage's `RenderedDocument` has these fields). */
interface CachedDocument {
  file: string;
  html: string;
  /** The string keys the page read. */
  strings: readonly string[];
}

/** What a page's precompressed copies depend on besides its HTML: the levels and the compressors' versions, as one short hash. */
const COMPRESSION = digest(JSON.stringify([FAST_LEVELS, process.versions.zlib ?? '', process.versions.brotli ?? ''])).slice(0, 16);

/**
 * The content hashes recorded for a page's precompressed copies (`.gz`, `.br`): its HTML's hash
 * with the kind and the compression's hash (no digest of its own: a build asks for those of every
 * kept page, 2,700 digests on the scaling site).
 */
function compressedHash(hash: string): [gz: string, br: string] {
  return [`${hash}.gz.${COMPRESSION}`, `${hash}.br.${COMPRESSION}`];
}

/** A page's files in the output (the HTML, and its `.gz` and `.br` when it is worth compressing) with their content hashes. */
export function pageFiles(file: string, htmlHash: string, bytes: number): [string, string][] {
  const files: [string, string][] = [[file, htmlHash]];
  if (isCompressible(file, bytes)) {
    // Not destructured: asked for every kept page several times, in a process that never warms up.
    const hashes = compressedHash(htmlHash);
    files.push([`${file}.gz`, hashes[0]], [`${file}.br`, hashes[1]]);
  }
  return files;
}

/**
 * A string's value as 8 hex digits (FNV-1a): recorded for every string pages read, only to name
 * the strings that changed in the plan's reasons (whether a page is rendered again rests on the
 * SHA-256 of its strings), so it is cheap rather than collision-proof: a build records 3,000 of them.
 */
function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, '0');
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
  inputsOf(route: CachedRoute, keys: readonly string[]): PageInputs;
  /**
   * This build's inputs of a page the last build recorded, as the plan asks them: a language
   * whose file and the English one are as last time (`stringSources`) reads what it read then, so
   * the recorded strings hash stands without hashing its strings again (six of seven languages
   * in a one-string rebuild).
   */
  plannedInputs(route: CachedRoute, recorded: RecordedPage): PageInputs;
  /** A string's value in this build (a short hash). */
  stringValue(lang: Lang, key: string): string;
  /** The output folders as the plan asks them: the output or the spare holds a page's files as recorded. */
  files: PlanFiles;
  /** The previous record of a page the plan kept. */
  recorded(file: string): PageRecord;
  /** Records a page rendered by this build; it keeps its previous time of change when what a reader sees is the same. */
  rendered(route: CachedRoute, document: CachedDocument, html: { hash: string; skeleton: string; bytes: number }): PageRecord;
  /** Records a page kept from the previous build. */
  kept(file: string, lang: Lang): PageRecord;
  /** This build's page records so far, by output file. */
  readonly pages: Readonly<Record<string, PageRecord>>;
  /** This build's page records, the string lists they refer to, what those strings say and the shared inputs, for the manifest. */
  records(): Pick<Manifest, 'pages' | 'stringSets' | 'stringKeys' | 'stringValues' | 'stringSources' | 'shared'>;
}

/**
 * The page cache of a build: `shared` is what every page reads, by part (page-inputs.ts
 * `sharedInputs`); a page's own inputs are its social card's URL (`cardOf`), its
 * Markdown (each file hashed by `fileHash`) and the values of the strings it read. With no
 * previous build, there are no records. A page whose visible content changed is recorded as
 * changed at `now` (page-changes.ts).
 */
export function pageCache(previous: PreviousBuild, shared: Record<string, string>, content: CachedContent, contentDir: string, fileHash?: FileHash, now = new Date(), cardOf: (path: string) => string = () => ''): PageCache {
  const manifest = previous.manifest;
  const contentPageOf = contentPageLookup(content.contentPages);
  // The strings hash of each (language, string list) pair, computed once: most pages share a list.
  const stringEntries = new Map<string, string>();
  const stringHashes = new Map<readonly string[], Map<Lang, string>>();
  const stringsOf = (lang: Lang, keys: readonly string[]) => {
    if (!stringHashes.has(keys)) stringHashes.set(keys, new Map());
    const byLang = stringHashes.get(keys)!;
    if (!byLang.has(lang)) byLang.set(lang, stringsHash(keys, lang, content.messages, stringEntries));
    return byLang.get(lang)!;
  };
  const ownInputs = (route: CachedRoute) => ({
    card: cardOf(route.canonical),
    markdown: markdownHash(route, contentPageOf(route.lang, route.page), contentDir, fileHash).slice(0, 16),
  });
  const inputsOf = (route: CachedRoute, keys: readonly string[]): PageInputs => ({ ...ownInputs(route), strings: stringsOf(route.lang, keys).slice(0, 16) });
  const stringValue = (lang: Lang, key: string) => shortHash(stringEntry(key, lang, content.messages, stringEntries));
  // What a language's string values are made from: its file and the English one (the fallback).
  const sourcesOf = (lang: Lang) => (fileHash ? `${fileHash(localeFile(contentDir, lang))} ${fileHash(localeFile(contentDir, DEFAULT_LANG))}` : '');
  // A language whose file and the English one are as last time says what it said: its strings' hashes and values stand.
  const settled = new Map<Lang, boolean>();
  const stringsSettled = (lang: Lang) => {
    if (!settled.has(lang)) {
      const sources = sourcesOf(lang);
      settled.set(lang, sources !== '' && manifest?.stringSources[lang] === sources);
    }
    return settled.get(lang)!;
  };

  const stringSets: string[][] = [];
  const setIndex = new Map<string, number>();
  const intern = (keys: readonly string[]) => {
    const sorted = [...keys].sort();
    const id = sorted.join('\n');
    if (!setIndex.has(id)) setIndex.set(id, stringSets.push(sorted) - 1);
    return setIndex.get(id)!;
  };
  // A kept page's list is interned once per recorded list, not sorted and joined again for each page that reads it.
  const recordedSet = new Map<number, number>();
  const internRecorded = (index: number) => {
    if (!recordedSet.has(index)) recordedSet.set(index, intern(manifest!.stringSets[index]!));
    return recordedSet.get(index)!;
  };
  const pages: Record<string, PageRecord> = {};
  const langs = new Set<Lang>();

  const recordedPages = new Map<string, RecordedPage>();
  // No destructuring in the loops over every page: in a process that runs once, it costs more than the rest of the loop.
  for (const file in manifest?.pages) {
    const record = manifest.pages[file]!;
    const keys = manifest.stringSets[record.strings];
    const parts = record.inputs.split(' ');
    if (keys) recordedPages.set(file, { inputs: { card: parts[0] ?? '', markdown: parts[1] ?? '', strings: parts[2] ?? '' }, keys });
  }
  const keyIndex = new Map(manifest?.stringKeys.map((key, i) => [key, i]));
  const previousValue = (lang: Lang, key: string) => {
    const i = keyIndex.get(key);
    return i === undefined ? undefined : manifest!.stringValues[lang]?.slice(i * 8, i * 8 + 8);
  };
  return {
    previous: manifest ? { shared: manifest.shared, pages: recordedPages, stringValue: previousValue } : null,
    inputsOf,
    plannedInputs: (route, recorded) => (stringsSettled(route.lang) ? { ...ownInputs(route), strings: recorded.inputs.strings } : inputsOf(route, recorded.keys)),
    stringValue,
    files: {
      holdsPage(file) {
        const record = manifest!.pages[file]!;
        // The spare is asked first: the build writes into it, so it is looked at anyway.
        return pageFiles(file, record.html, record.bytes).every((f) => previous.spareFiles.hash(f[0]) === f[1] || previous.outFiles.hash(f[0]) === f[1]);
      },
    },
    recorded: (file) => manifest!.pages[file]!,
    rendered(route, document, html) {
      const strings = intern(document.strings);
      langs.add(route.lang);
      const visible = pageContentHash(document.html);
      const changed = lastChanged(manifest?.pages[document.file], visible, now);
      const inputs = inputsOf(route, stringSets[strings]!);
      pages[document.file] = { inputs: `${inputs.card} ${inputs.markdown} ${inputs.strings}`, strings, html: html.hash, skeleton: html.skeleton, bytes: html.bytes, content: visible, changed };
      return pages[document.file]!;
    },
    kept(file, lang) {
      const record = manifest!.pages[file]!;
      const strings = internRecorded(record.strings);
      langs.add(lang);
      // Field by field, not a spread of the record: for each of 1,351 kept pages, never warmed up.
      pages[file] = { inputs: record.inputs, strings, html: record.html, skeleton: record.skeleton, bytes: record.bytes, content: record.content, changed: record.changed };
      return pages[file]!;
    },
    pages,
    records() {
      const stringKeys = [...new Set(stringSets.flat())].sort();
      const sameKeys = manifest?.stringKeys.join('\n') === stringKeys.join('\n');
      const stringValues: Record<string, string> = {};
      const stringSources: Record<string, string> = {};
      for (const lang of langs) {
        // A settled language's values are kept, not hashed again.
        stringSources[lang] = sourcesOf(lang);
        const kept = sameKeys && stringsSettled(lang) ? manifest!.stringValues[lang] : undefined;
        stringValues[lang] = kept ?? stringKeys.map((key) => stringValue(lang, key)).join('');
      }
      return { pages, stringSets, stringKeys, stringValues, stringSources, shared };
    },
  };
}
