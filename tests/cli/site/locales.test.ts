import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mailTextsSchema } from '../../../ingest/contract/mail-texts.ts';
import { LANGUAGES } from '../../../cli/site/languages.ts';
import { flatten, loadAllMessages, placeholdersOf } from '../../../cli/site/locales.ts';
import { DEFAULT_PATHS, PROJECT_ROOT } from '../../../cli/paths.ts';
import { ContentError } from '../../../cli/site/errors.ts';
import { testFolder } from '../../helpers/test-folders.ts';

const messages = loadAllMessages(DEFAULT_PATHS.contentDir);
const flat = new Map(LANGUAGES.map((lang) => [lang, flatten(messages.get(lang)!)]));
const english = flat.get('en')!;

function templateFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? templateFiles(join(dir, entry.name)) : /\.tsx?$/.test(entry.name) ? [join(dir, entry.name)] : [],
  );
}

describe('translations', () => {
  it.each(LANGUAGES)('%s has exactly the keys of every other language', (lang) => {
    const keys = Object.keys(flat.get(lang)!).sort();
    expect(keys).toEqual(Object.keys(english).sort());
  });

  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s uses the same placeholders and tags as English in every string', (lang) => {
    for (const [key, value] of Object.entries(flat.get(lang)!)) {
      const source = english[key] ?? '';
      expect(placeholdersOf(value), `${lang}: ${key}`).toEqual(placeholdersOf(source));
      expect(value.match(/<\/?\w+>/g) ?? [], `${lang}: ${key} tags`).toEqual(source.match(/<\/?\w+>/g) ?? []);
    }
  });

  it('has every key a template names literally', () => {
    const used = new Set<string>();
    for (const file of templateFiles(join(PROJECT_ROOT, 'templates'))) {
      for (const match of readFileSync(file, 'utf8').matchAll(/\bt\(\s*'([\w.]+)'/g)) used.add(match[1]!);
    }
    expect(used.size).toBeGreaterThan(40);
    for (const key of used) expect(english, key).toHaveProperty([key]);
  });

  it('has no key that no language translates differently from the key itself', () => {
    for (const lang of LANGUAGES) {
      for (const [key, value] of Object.entries(flat.get(lang)!)) expect(value, `${lang}: ${key}`).not.toBe(key);
    }
  });
});

describe('the confirmation texts (newsletter, contact form without JavaScript)', () => {
  it.each(LANGUAGES)('%s has the mail texts the ingest service reads (mail.confirm.*, mail.contactConfirm.*)', (lang) => {
    expect(mailTextsSchema.safeParse(messages.get(lang)!.mail).success).toBe(true);
  });

  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s translates every string of the mail, the service pages and the check-inbox panel', (lang) => {
    const keys = Object.keys(english).filter((key) => /^(mail|servicePages)\.|^newsletter\.checkInbox|^meta\.(newsletter\w+|linkInvalid|formNotAccepted|tooManyAttempts|formNotStored|contact\w+)\./.test(key));
    expect(keys.length).toBeGreaterThan(40);
    for (const key of keys.filter((k) => !SAME_WORD[lang]?.includes(k))) expect(flat.get(lang)![key], `${lang}: ${key}`).not.toBe(english[key]);
  });
});

/** Labels whose translation is the English word itself: French "Question" and "Message", Italian "Email". */
const SAME_WORD: Partial<Record<string, string[]>> = { fr: ['mail.sales.reasonQuestion', 'mail.sales.message'], it: ['mail.sales.email'] };

describe('loadAllMessages', () => {
  it('names the file and each bad key: an empty text, a number, a list; the good ones pass', () => {
    const contentDir = testFolder('locales-');
    mkdirSync(join(contentDir, 'locales'));
    writeFileSync(join(contentDir, 'locales', 'en.json'), JSON.stringify({ nav: { about: 'About', home: '' }, count: 3, list: ['a'], footer: { legal: { privacy: 'Privacy' } } }));
    let problems: unknown = null;
    try {
      loadAllMessages(contentDir, ['en']);
    } catch (error) {
      problems = error instanceof ContentError ? error.problems : error;
    }
    const file = join(contentDir, 'locales', 'en.json');
    expect(problems).toEqual([
      { code: 'content_invalid', file, message: 'nav.home: must not be empty' },
      { code: 'content_invalid', file, message: 'count: must be a text or a group of texts' },
      { code: 'content_invalid', file, message: 'list: must be a text or a group of texts' },
    ]);
    writeFileSync(file, JSON.stringify({ nav: { about: 'About' }, footer: { legal: { privacy: 'Privacy' } } }));
    expect(loadAllMessages(contentDir, ['en']).get('en')).toEqual({ nav: { about: 'About' }, footer: { legal: { privacy: 'Privacy' } } });
  });
});
