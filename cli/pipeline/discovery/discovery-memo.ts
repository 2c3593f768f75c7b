/**
 * What the last build made for each language from that language's own inputs (the texts of its
 * social cards, its `llms.txt`), kept beside the build record (`discovery.json`) under the key of
 * those inputs: a language whose key is the same takes them from here instead of making them
 * again. A one-string rebuild of the scaling site (one German string) makes the German ones only:
 * the other six languages' 1,000 card texts and six `llms.txt` come from the record.
 *
 * A language's key covers everything its cards' texts and its `llms.txt` read: the code that
 * makes them (the modules `social-cards.ts` and `llms-txt.ts` reach, and the locked packages),
 * `site.json` (brand, site URL), the languages built, the language's routes, its placeholder
 * values, its strings and the English ones (the fallback), and the front matter of its pages added
 * as Markdown. The cards' pictures are not kept here: `page-cards.ts` finds each in the asset
 * cache by the hash of its text and of what draws it.
 *
 *   const memo = discoveryMemo(outDir, content, routes, langs);
 *   memo.kept('de')?.cards        // the German card texts of the last build, when its inputs are the same
 *   memo.keep('de', { cards, llms }) … ; memo.save(); // after a build that published
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { inputsHash } from '../../assets/asset-cache.ts';
import { moduleGraph } from '../../assets/module-graph.ts';
import { DEFAULT_LANG, LANGUAGES, type Lang } from '../../site/languages.ts';
import type { RenderedRoute } from '../../site/routes.ts';
import { frontMatterEntry } from '../cache/front-matter-cache.ts';
import { cacheDirOf } from '../cache/output-store.ts';
import { digest } from '../cache/page-inputs.ts';
import type { LoadedContent } from '../load-content.ts';

const cardRequest = z.object({
  /** The page's URL path. */
  id: z.string(),
  lang: z.enum(LANGUAGES),
  text: z.object({ brand: z.string(), title: z.string(), tagline: z.string(), host: z.string() }),
});

/** One card's request: the page's URL path, its language and what its card says (`pageCards`). */
export type CardRequest = z.infer<typeof cardRequest>;

const languageRecord = z.object({ key: z.string(), cards: z.array(cardRequest), llms: z.string().optional() });

/** What a build made for one language: its cards' requests and, when the build made it, its `llms.txt`. */
type LanguageDiscovery = z.infer<typeof languageRecord>;

const recordSchema = z.object({ version: z.literal(1), langs: z.partialRecord(z.enum(LANGUAGES), languageRecord) });

const recordFile = (outDir: string) => join(cacheDirOf(outDir), 'discovery.json');

/** The memo of a build into `outDir`. */
export interface DiscoveryMemo {
  /** What the last build made for `lang`, when `lang`'s inputs are as they were; else undefined. */
  kept(lang: Lang): Omit<LanguageDiscovery, 'key'> | undefined;
  /** Records what this build made for `lang`: its cards' requests, its `llms.txt`, or both. */
  keep(lang: Lang, made: Partial<Omit<LanguageDiscovery, 'key'>>): void;
  /** Writes the record: called once the build published. */
  save(): void;
}

/** The key of each language's inputs (see the top of this file). */
function languageKeys(content: LoadedContent, routes: readonly RenderedRoute[], langs: readonly Lang[]): Map<Lang, string> {
  const code = inputsHash([...moduleGraph([new URL('./social-cards.ts', import.meta.url), new URL('./llms-txt.ts', import.meta.url)]), 'package-lock.json']);
  const shared = digest(code, JSON.stringify(content.site), langs.join(','), JSON.stringify(content.messages.get(DEFAULT_LANG) ?? null));
  return new Map(
    langs.map((lang) => [
      lang,
      digest(
        shared,
        lang,
        JSON.stringify(routes.filter((route) => route.lang === lang)),
        JSON.stringify(content.values[lang]),
        JSON.stringify(content.messages.get(lang) ?? null),
        JSON.stringify(content.contentPages.filter((page) => page.lang === lang).map((page) => [page.name, page.file, frontMatterEntry(page)])),
      ),
    ]),
  );
}

/** The record of the last build into `outDir`; empty when there is none or it cannot be read. */
function readRecord(outDir: string): z.infer<typeof recordSchema>['langs'] {
  try {
    const record = recordSchema.safeParse(JSON.parse(readFileSync(recordFile(outDir), 'utf8')));
    return record.success ? record.data.langs : {};
  } catch {
    return {};
  }
}

/**
 * The memo of a build of `langs` into `outDir`; `fresh` (`--no-cache`) reads nothing of the last
 * build's record but still writes this build's, for the next build.
 */
export function discoveryMemo(outDir: string, content: LoadedContent, routes: readonly RenderedRoute[], langs: readonly Lang[], fresh = false): DiscoveryMemo {
  const keys = languageKeys(content, routes, langs);
  const previous = fresh ? {} : readRecord(outDir);
  const next: z.infer<typeof recordSchema>['langs'] = {};
  const kept = (lang: Lang) => {
    const record = previous[lang];
    return record && record.key === keys.get(lang) ? record : undefined;
  };
  return {
    kept,
    keep(lang, made) {
      next[lang] = { cards: [], ...next[lang], ...made, key: keys.get(lang)! };
    },
    save() {
      const file = recordFile(outDir);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(`${file}.${process.pid}`, JSON.stringify({ version: 1, langs: next }));
      renameSync(`${file}.${process.pid}`, file);
    },
  };
}
