import { type ContentPage, loadContentPages, type PageReader } from '../site/markdown/content-pages.ts';
import { fillPlaceholders } from '../site/markdown/markdown.ts';
import { ContentError, type Problem } from '../site/errors.ts';
import { createTranslator, type Translate } from '../site/i18n.ts';
import { DEFAULT_LANG, LANGUAGES, type Lang } from '../site/languages.ts';
import { loadAllMessages, localeFile, type Messages, placeholdersOf } from '../site/locales.ts';
import { siteRoutes, type SiteRoutes } from '../site/routes.ts';
import { loadSiteConfig, PLACEHOLDER_NAMES, placeholderValues, type SiteConfig } from '../site/site-config.ts';
import { loadedLocaleFile, type LocaleFile, missingKeys, readLocaleFile, translationProblems } from '../site/translations/translation-files.ts';

const siteValues = new Set<string>(PLACEHOLDER_NAMES);

/** The content a build renders: site configuration, placeholder values and a translator per language. */
export interface LoadedContent {
  site: SiteConfig;
  /** The values of `{{placeholders}}` (brand, company, email, …) in each language (`{{location}}` differs). */
  values: Readonly<Record<Lang, Record<string, string>>>;
  translators: ReadonlyMap<Lang, Translate>;
  /** The language files the translators answer from (English always), which the build cache compares. */
  messages: ReadonlyMap<Lang, Messages>;
  /** Keys a template asked for that no language has, collected while pages render. */
  unknownKeys: ReadonlySet<string>;
  /** The pages added as Markdown files, every language's text (whatever languages are built: links and hreflang need them all). */
  contentPages: readonly ContentPage[];
  /** The site's routes table: the fixed pages and the pages added as Markdown. */
  routes: SiteRoutes;
}

/**
 * The first stage: reads and validates `site.json`, the language files of `langs` (English
 * always: it is the fallback) and the pages added as Markdown (front matter, URLs), which make
 * the routes table. `siteUrl` overrides the configured one (`--site-url`); `readPage` reads a page
 * file (a build with the cache: through its front matter cache).
 */
export function loadContent(contentDir: string, langs: readonly Lang[], siteUrl?: string, readPage?: PageReader): { ok: true; content: LoadedContent } | { ok: false; problems: readonly Problem[] } {
  try {
    const configured = loadSiteConfig(contentDir);
    const site = siteUrl ? Object.freeze({ ...configured, siteUrl: siteUrl.replace(/\/+$/, '') }) : configured;
    const messages = loadAllMessages(contentDir, langs);
    const values = Object.fromEntries(LANGUAGES.map((lang) => [lang, placeholderValues(site, lang)])) as Record<Lang, Record<string, string>>;
    const unknownKeys = new Set<string>();
    const translators = new Map(langs.map((lang) => [lang, createTranslator(lang, messages, values[lang], (key) => unknownKeys.add(key))]));
    const contentPages = loadContentPages(contentDir, readPage);
    if (contentPages.problems.length > 0) throw new ContentError(contentPages.problems);
    // The solutions page shows each industry page's description, so it is filled in as the page's own is.
    const routes = siteRoutes(contentPages.pages.map((page) => ({ ...page, description: fillPlaceholders(page.description, values[page.lang], page.file, page.fieldLines.description) })));
    return { ok: true, content: { site, values, translators, messages, unknownKeys, contentPages: contentPages.pages, routes } };
  } catch (error) {
    if (error instanceof ContentError) return { ok: false, problems: error.problems };
    throw error;
  }
}

/** The problems of the keys templates used that exist in no language. */
export function unknownKeyProblems(content: LoadedContent, contentDir: string): Problem[] {
  return [...content.unknownKeys].map((key) => ({
    code: 'key_unknown',
    file: localeFile(contentDir, DEFAULT_LANG),
    message: `translation key "${key}" is used by a template but missing`,
  }));
}

/**
 * What would publish a page that is not what the translator wrote, found once at its cause in the
 * language files of `langs`: a key the language lacks (the page would show English) and a
 * placeholder without a value (it would be printed literally). `allowMissing` turns the missing
 * keys into warnings (the build publishes with English in their place).
 */
export function translationGaps(contentDir: string, langs: readonly Lang[], allowMissing: boolean, loaded?: ReadonlyMap<Lang, Messages>): { errors: Problem[]; warnings: Problem[] } {
  // A language the content stage loaded is not read again.
  const read = (lang: Lang) => {
    const messages = loaded?.get(lang);
    return messages ? loadedLocaleFile(contentDir, process.cwd(), lang, messages) : readLocaleFile(contentDir, process.cwd(), lang);
  };
  const english = read(DEFAULT_LANG);
  if ('message' in english) return { errors: [english], warnings: [] };
  const locales = langs.filter((lang) => lang !== DEFAULT_LANG).map(read).filter((l): l is LocaleFile => !('message' in l));
  const missing = locales.flatMap((locale) => missingKeys(locale, english));
  // Only a string with a placeholder that is no site value can have an unknown one: the others are
  // not compared. A plain loop over each file's 460 strings: no entry arrays destructured.
  const unknownPlaceholders: Problem[] = [];
  for (const locale of locales) {
    for (const key in locale.flat) {
      const value = locale.flat[key]!;
      if (!value.includes('{{') || !(key in english.flat) || placeholdersOf(value).every((name) => siteValues.has(name))) continue;
      unknownPlaceholders.push(...translationProblems(locale, key, value, english.flat[key]!).filter((p) => p.code === 'placeholder_unknown'));
    }
  }
  return allowMissing ? { errors: unknownPlaceholders, warnings: missing } : { errors: [...missing, ...unknownPlaceholders], warnings: [] };
}
