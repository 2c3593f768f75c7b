import { createHash, hash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { inputsHash } from '../../assets/asset-cache.ts';
import type { IslandBundle } from '../../assets/islands-build.ts';
import { moduleGraph } from '../../assets/module-graph.ts';
import type { SocialImages } from '../../assets/raster-assets.ts';
import { DEFAULT_LANG, type Lang } from '../../site/languages.ts';
import type { Messages } from '../../site/locales.ts';
import type { ContentPage } from '../../site/markdown/content-pages.ts';
import { isMarkdownPage, markdownFile } from '../../site/markdown/markdown.ts';
import type { RenderedRoute, RoutePageId } from '../../site/routes.ts';
import type { SiteConfig } from '../../site/site-config.ts';
import { frontMatterEntry } from './front-matter-cache.ts';

/** What of the loaded content the page cache reads (the content stage's `LoadedContent` has these fields). */
export interface CachedContent {
  site: SiteConfig;
  values: Readonly<Record<Lang, Record<string, string>>>;
  messages: ReadonlyMap<Lang, Messages>;
  contentPages: readonly ContentPage[];
}

/** What of the assets every page links to or inlines (the assets stage's `SiteAssets` has these fields). */
interface LinkedAssets {
  stylesheet: string;
  islands: Pick<IslandBundle, 'assets'>;
  loader: string;
  socialImages: SocialImages;
}

/** A short hex digest of `parts`, each ended by a NUL so `['ab', 'c']` and `['a', 'bc']` differ. */
export function digest(...parts: readonly (string | Uint8Array)[]): string {
  // Strings joined and hashed in one call, without a hash object: the same bytes, in a fraction
  // of the time of a call each (a build takes a digest of every page's inputs).
  if (parts.every((part) => typeof part === 'string')) return hash('sha256', `${parts.join('\0')}\0`).slice(0, 32);
  const bytes = createHash('sha256');
  for (const part of parts) bytes.update(part).update('\0');
  return bytes.digest('hex').slice(0, 32);
}

/**
 * The hash of the code that renders pages: every project module the render stage reaches (the
 * templates among them) and the locked npm packages. Any edit to them renders every page again.
 */
export function renderCodeHash(): string {
  return inputsHash([...moduleGraph([new URL('../render-pages.ts', import.meta.url), new URL('./page-inputs.ts', import.meta.url)]), 'package-lock.json']);
}

/**
 * What every page reads besides its own strings and Markdown, by part (the build plan names the
 * parts that changed): the render code, `site.json` (the `--site-url` override included), the
 * placeholder values, the routes table and the front matter of every page added as Markdown
 * (links, menus and the solutions page show them), the assets the pages link to or inline, the
 * languages built and the year.
 */
export function sharedInputs(codeHash: string, content: CachedContent, assets: LinkedAssets, routes: readonly RenderedRoute[], langs: readonly Lang[], year: number): Record<string, string> {
  // Fields in a fixed order: a page read from its file and one from the front matter cache hash alike.
  const frontMatter = content.contentPages.map((p) => [p.name, p.lang, p.file, frontMatterEntry(p)]);
  const linked = { stylesheet: assets.stylesheet, islands: assets.islands.assets, loader: assets.loader, socialImages: assets.socialImages };
  return {
    code: codeHash,
    site: digest(JSON.stringify(content.site)),
    placeholders: digest(JSON.stringify(content.values)),
    routes: digest(JSON.stringify(routes)),
    frontMatter: digest(JSON.stringify(frontMatter)),
    assets: digest(JSON.stringify(linked)),
    languages: langs.join(','),
    year: String(year),
  };
}

/** The value at a dotted key of nested messages (a string, a subtree, or undefined). */
function messageAt(messages: Messages | undefined, key: string): unknown {
  let node: unknown = messages;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/**
 * A hash of what the strings `keys` say in `lang`, English included (the fallback): equal
 * hashes mean a page that read these keys would read the same texts again. `entries` keeps
 * what each key says for the next call on the same messages.
 */
export function stringsHash(keys: readonly string[], lang: Lang, messages: ReadonlyMap<Lang, Messages>, entries = new Map<string, string>()): string {
  return digest(...keys.map((key) => stringEntry(key, lang, messages, entries)));
}

/** What the string `key` says in `lang` and in English (the fallback), as `stringsHash` hashes it; `entries` keeps it for the next call. */
export function stringEntry(key: string, lang: Lang, messages: ReadonlyMap<Lang, Messages>, entries = new Map<string, string>()): string {
  // `entries` keeps each key's entry for `lang` across calls: pages share most of their keys.
  const id = `${lang}\0${key}`;
  let entry = entries.get(id);
  if (entry === undefined) {
    entry = `${key}=${JSON.stringify(messageAt(messages.get(lang), key)) ?? ''}|${JSON.stringify(messageAt(messages.get(DEFAULT_LANG), key)) ?? ''}`;
    entries.set(id, entry);
  }
  return entry;
}

/** The hash of a file's bytes, read each time (the build passes its record's hashes, which read a file only when it changed: file-hashes.ts). */
export type FileHash = (path: string) => string;
const readAndHash: FileHash = (path) => digest(readFileSync(path));

/**
 * The hash of the Markdown a route's page reads: its file (a legal text, or a page added as
 * Markdown: front matter and body), by `fileHash`; empty for a page made by its template alone.
 */
export function markdownHash(route: { page: RoutePageId | 'notFound'; lang: Lang }, contentPage: ContentPage | undefined, contentDir: string, fileHash: FileHash = readAndHash): string {
  if (route.page === 'notFound') return '';
  if (isMarkdownPage(route.page)) {
    const file = markdownFile(contentDir, route.lang, route.page);
    return existsSync(file) ? fileHash(file) : 'missing';
  }
  return contentPage ? fileHash(contentPage.file) : '';
}
