/**
 * What the last build made for each language from that language's own inputs (the texts of its
 * social cards, its `llms.txt`), kept beside the build record (`discovery/<lang>.json`) under the
 * key of those inputs: a language whose key is the same takes them from here instead of making
 * them again. A one-string rebuild of the scaling site (one German string) makes the German ones
 * only: the other six languages' 1,000 card texts and six `llms.txt` come from their records, and
 * only the German record is written again.
 *
 * A language's key covers everything its cards' texts and its `llms.txt` read: the code that
 * makes them (every file the build's key covers outside the content folder: the modules, the
 * locked packages), `site.json` (brand, site URL), the languages built, its placeholder values,
 * its strings and the English ones (the fallback), and its pages added as Markdown (their files:
 * their front matter, and with the code the language's routes, come from them). The files count by the hashes
 * the build record's check already took (`Standing`): none is read or hashed again here. The
 * cards' pictures are not kept here: `page-cards.ts` finds each in the asset cache by the hash of
 * its text and of what draws it.
 *
 *   const memo = discoveryMemo(outDir, content, langs, { contentDir, known });
 *   memo.kept('de')?.cards        // the German card texts of the last build, when its inputs are the same
 *   memo.keep('de', { cards, llms }) … ; memo.save(); // after a build that published
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeRecordFile } from '../../files/record-file.ts';
import { DEFAULT_LANG, type Lang } from '../../site/languages.ts';
import { localeFile } from '../../site/locales.ts';
import type { Standing } from '../cache/build-record.ts';
import { cacheDirOf } from '../cache/output-store.ts';
import { digest } from '../cache/page-inputs.ts';
import type { LoadedContent } from '../load-content.ts';

/** What a language's cards say, in columns (one card per index): the brand and host every card shows, and each card's page (its URL path), title and tagline (`socialCards` makes a request per card of them). */
export interface LanguageCards {
  brand: string;
  host: string;
  ids: string[];
  titles: string[];
  taglines: string[];
}

/** What a build made for one language: its cards' texts and, when the build made it, its `llms.txt`. */
interface LanguageDiscovery {
  cards: LanguageCards;
  llms?: string;
}

/** A language's record: the key of its inputs, and what the build made from them. */
interface LanguageRecord extends LanguageDiscovery {
  version: 2;
  key: string;
}

/** Whether `value` is an array of strings. */
const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every((entry) => typeof entry === 'string');

/**
 * Whether `value` is a language's record as `save` writes it, checked in one plain pass: the
 * first parse by a zod object schema compiles it, in a process that runs once (seven records, 2 ms).
 */
function isLanguageRecord(value: unknown): value is LanguageRecord {
  if (typeof value !== 'object' || value === null) return false;
  const { version, key, cards, llms } = value as Partial<Record<keyof LanguageRecord, unknown>>;
  if (version !== 2 || typeof key !== 'string' || (llms !== undefined && typeof llms !== 'string') || typeof cards !== 'object' || cards === null) return false;
  const { brand, host, ids, titles, taglines } = cards as Partial<Record<keyof LanguageCards, unknown>>;
  return typeof brand === 'string' && typeof host === 'string' && isStrings(ids) && isStrings(titles) && isStrings(taglines) && titles.length === ids.length && taglines.length === ids.length;
}

const recordFile = (outDir: string, lang: Lang) => join(cacheDirOf(outDir), 'discovery', `${lang}.json`);

/** A language with no cards: what `keep` starts from. */
const NO_CARDS: LanguageCards = { brand: '', host: '', ids: [], titles: [], taglines: [] };

/** What the build record's check knows of the files the build reads: each one's hash, and every hash its key covers. */
export interface KnownFiles {
  contentDir: string;
  known: Pick<Standing, 'inputs' | 'fileHash'>;
}

/** The memo of a build into `outDir`. */
export interface DiscoveryMemo {
  /** What the last build made for `lang`, when `lang`'s inputs are as they were; else undefined. */
  kept(lang: Lang): LanguageDiscovery | undefined;
  /** Records what this build made for `lang`: its cards' texts, its `llms.txt`, or both. */
  keep(lang: Lang, made: Partial<LanguageDiscovery>): void;
  /** Writes the records of the languages whose record changed: called once the build published. */
  save(): void;
}

/** The hash of every file the build's key covers outside the content folder: the code, the stylesheets, the locked packages. */
function codeKey({ contentDir, known }: KnownFiles): string {
  // The content's files are named as the check listed them: under `contentDir` joined with its files' names.
  const content = join(contentDir, '/');
  const parts: string[] = [];
  known.inputs.paths.forEach((path, i) => {
    if (!path.startsWith(content)) parts.push(path, known.inputs.hashes[i]!);
  });
  return digest(...parts);
}

/** The key of each language's inputs (see the top of this file). */
function languageKeys(content: LoadedContent, langs: readonly Lang[], files: KnownFiles): Map<Lang, string> {
  const { contentDir, known } = files;
  // A language's routes come from the code and its pages' files (their names, their slugs): keyed by these.
  const pagesOf = new Map<Lang, string[]>(langs.map((lang) => [lang, []]));
  for (const page of content.contentPages) pagesOf.get(page.lang)?.push(page.file, known.fileHash(page.file));
  const shared = [codeKey(files), JSON.stringify(content.site), langs.join(','), known.fileHash(localeFile(contentDir, DEFAULT_LANG))];
  return new Map(langs.map((lang) => [lang, digest(...shared, lang, known.fileHash(localeFile(contentDir, lang)), JSON.stringify(content.values[lang]), ...pagesOf.get(lang)!)]));
}

/** The record of `lang` of the last build into `outDir`; undefined when there is none or it cannot be read. */
function readRecord(outDir: string, lang: Lang): LanguageRecord | undefined {
  try {
    const record: unknown = JSON.parse(readFileSync(recordFile(outDir, lang), 'utf8'));
    return isLanguageRecord(record) ? record : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The memo of a build of `langs` into `outDir`, its keys made of the hashes `files` knows;
 * `fresh` (`--no-cache`) reads nothing of the last build's records but still writes this
 * build's, for the next build.
 */
export function discoveryMemo(outDir: string, content: LoadedContent, langs: readonly Lang[], files: KnownFiles, fresh = false): DiscoveryMemo {
  const keys = languageKeys(content, langs, files);
  const previous = new Map<Lang, LanguageRecord>();
  if (!fresh) {
    for (const lang of langs) {
      const record = readRecord(outDir, lang);
      if (record && record.key === keys.get(lang)) previous.set(lang, record);
    }
  }
  const next = new Map<Lang, LanguageDiscovery>();
  // The languages whose record is not the one read: the others are not written again.
  const changed = new Set<Lang>();
  return {
    kept: (lang) => previous.get(lang),
    keep(lang, made) {
      const was = previous.get(lang);
      if (!was || ('cards' in made && made.cards !== was.cards) || ('llms' in made && made.llms !== was.llms)) changed.add(lang);
      next.set(lang, { cards: NO_CARDS, ...next.get(lang), ...made });
    },
    save() {
      for (const lang of changed) writeRecordFile(recordFile(outDir, lang), JSON.stringify({ version: 2, key: keys.get(lang)!, ...next.get(lang)! }));
    },
  };
}
