import { join } from 'node:path';
import { z } from 'zod';
import { LANGUAGES, type Lang } from './languages.ts';
import { readContentJson } from './site-config.ts';

/** A resource file: nested objects whose leaves are non-empty strings. */
export type Messages = { [key: string]: string | Messages };

/** Reports each value under `messages` (at `path`) that is neither a non-empty string nor a group of them. */
function checkMessages(messages: Record<string, unknown>, path: readonly string[], ctx: z.RefinementCtx): void {
  for (const [key, value] of Object.entries(messages)) {
    if (typeof value === 'string') {
      if (value === '') ctx.addIssue({ code: 'custom', path: [...path, key], message: 'must not be empty' });
    } else if (typeof value === 'object' && value !== null && !Array.isArray(value)) checkMessages(value as Record<string, unknown>, [...path, key], ctx);
    else ctx.addIssue({ code: 'custom', path: [...path, key], message: 'must be a text or a group of texts' });
  }
}

// One walk over the tree: a recursive union of zod schemas took about four times as long (15 ms of
// each build for the seven files, on the scaling site's 2-core machine).
const messagesSchema = z
  .record(z.string(), z.unknown())
  .superRefine((messages, ctx) => checkMessages(messages, [], ctx))
  .transform((messages) => messages as Messages);

/** The path of a language's resource file, e.g. `content/locales/de.json`. */
export function localeFile(contentDir: string, lang: Lang): string {
  return join(contentDir, 'locales', `${lang}.json`);
}

/** Reads and validates one language's resource file. */
function loadMessages(contentDir: string, lang: Lang): Messages {
  return readContentJson(localeFile(contentDir, lang), messagesSchema);
}

/** Loads the resource files of the given languages (English is always loaded: it is the fallback). */
export function loadAllMessages(contentDir: string, langs: readonly Lang[] = LANGUAGES): Map<Lang, Messages> {
  const wanted = new Set<Lang>(['en', ...langs]);
  return new Map([...wanted].map((lang) => [lang, loadMessages(contentDir, lang)]));
}

/**
 * Flattens nested messages into dotted keys.
 *
 * @example flatten({ nav: { about: 'About' } }) // { 'nav.about': 'About' }
 */
export function flatten(messages: Messages, prefix = '', out: Record<string, string> = {}): Record<string, string> {
  // Each group's keys go straight into `out`, in the order of the file (a build flattens seven files).
  for (const key in messages) {
    const value = messages[key]!;
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out[path] = value;
    else flatten(value, path, out);
  }
  return out;
}

/** The `{{name}}` placeholders a string uses, sorted and de-duplicated. */
export function placeholdersOf(text: string): string[] {
  return [...new Set([...text.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)].map((m) => m[1] as string))].sort();
}
