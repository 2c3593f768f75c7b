import { createTranslator, type Translate } from '../site/i18n.ts';
import type { Lang } from '../site/languages.ts';
import { loadAllMessages } from '../site/locales.ts';
import { ContentError, type Problem } from '../site/errors.ts';
import { loadSiteConfig, placeholderValues, type SiteConfig } from '../site/site-config.ts';

/** The content a build renders: site configuration, placeholder values and a translator per language. */
export interface LoadedContent {
  site: SiteConfig;
  /** The values of `{{placeholders}}` (brand, company, email, …). */
  values: Record<string, string>;
  translators: ReadonlyMap<Lang, Translate>;
  /** Keys a template asked for that no language has, collected while pages render. */
  unknownKeys: ReadonlySet<string>;
}

/**
 * The first stage: reads and validates `site.json` and the language files of `langs` (English
 * always: it is the fallback). `siteUrl` overrides the configured one (`--site-url`).
 */
export function loadContent(contentDir: string, langs: readonly Lang[], siteUrl?: string): { ok: true; content: LoadedContent } | { ok: false; problems: readonly Problem[] } {
  try {
    const configured = loadSiteConfig(contentDir);
    const site = siteUrl ? Object.freeze({ ...configured, siteUrl: siteUrl.replace(/\/+$/, '') }) : configured;
    const messages = loadAllMessages(contentDir, langs);
    const values = placeholderValues(site);
    const unknownKeys = new Set<string>();
    const translators = new Map(langs.map((lang) => [lang, createTranslator(lang, messages, values, (key) => unknownKeys.add(key))]));
    return { ok: true, content: { site, values, translators, unknownKeys } };
  } catch (error) {
    if (error instanceof ContentError) return { ok: false, problems: error.problems };
    throw error;
  }
}

/** The problems of the keys templates used that exist in no language. */
export function unknownKeyProblems(content: LoadedContent, contentDir: string): Problem[] {
  return [...content.unknownKeys].map((key) => ({
    code: 'key_unknown',
    file: `${contentDir}/locales/en.json`,
    message: `translation key "${key}" is used by a template but missing`,
  }));
}
