import { describe, expect, it } from 'vitest';
import type { Lang } from '../../../cli/site/languages.ts';
import { emptyLock, formatLock, hashText, parseLock, recordTranslated, translationStatus, type TranslationSources } from '../../../cli/site/translations/translation-lock.ts';

function sources(strings: Partial<Record<Lang, Record<string, string>>>, pages: Partial<Record<Lang, Record<string, string>>> = {}): TranslationSources {
  return {
    strings: new Map(Object.entries(strings) as [Lang, Record<string, string>][]),
    pages: new Map(Object.entries(pages).map(([lang, files]) => [lang as Lang, new Map(Object.entries(files))])),
  };
}

const v1 = sources({ en: { 'hero.title': 'Protect data', 'hero.cta': 'Book a demo', 'nav.about': 'About' }, de: { 'hero.title': 'Daten schützen', 'hero.cta': 'Demo buchen', 'nav.about': 'Über uns' }, fr: { 'hero.title': 'Protéger', 'nav.about': 'À propos' } }, { en: { 'privacy.md': '# Privacy' }, de: { 'privacy.md': '# Datenschutz' } });
const states = (s: TranslationSources, lock = emptyLock(), langs: Lang[] = ['de', 'fr']) => translationStatus(s, lock, langs).map((x) => `${x.lang} ${x.item} ${x.state}`);

describe('the translation lock', () => {
  it('counts every translation as outdated until it is recorded, and a key or page the language lacks as missing', () => {
    expect(states(v1)).toEqual([
      'de hero.title outdated', 'de hero.cta outdated', 'de nav.about outdated', 'de privacy.md outdated',
      'fr hero.title outdated', 'fr hero.cta missing', 'fr nav.about outdated', 'fr privacy.md missing',
    ]);
  });

  it('records everything a language has, and shows it outdated once the English changes', () => {
    const { lock, recorded, unmatched } = recordTranslated(recordTranslated(emptyLock(), v1, 'de').lock, v1, 'fr');
    expect(recorded).toEqual(['hero.title', 'nav.about']);
    expect(unmatched).toEqual([]);
    expect(states(v1, lock).filter((s) => !s.endsWith('current'))).toEqual(['fr hero.cta missing', 'fr privacy.md missing']);
    const v2 = sources({ ...Object.fromEntries(v1.strings), en: { ...v1.strings.get('en'), 'hero.title': 'Protect your data' } }, { en: { 'privacy.md': '# Privacy\n\nNew.' }, de: { 'privacy.md': '# Datenschutz' } });
    expect(states(v2, lock).filter((s) => s.endsWith('outdated'))).toEqual(['de hero.title outdated', 'de privacy.md outdated', 'fr hero.title outdated']);
  });

  it('records single keys, key prefixes and page files, and leaves the other languages as they were', () => {
    const start = recordTranslated(recordTranslated(emptyLock(), v1, 'de').lock, v1, 'fr').lock;
    const v2 = sources({ ...Object.fromEntries(v1.strings), en: { ...v1.strings.get('en'), 'hero.title': 'Protect your data', 'hero.cta': 'Get a demo' } });
    const { lock, recorded } = recordTranslated(start, v2, 'de', ['hero']);
    expect(recorded).toEqual(['hero.title', 'hero.cta']);
    expect(lock.strings['hero.title']).toEqual({ [hashText('Protect data')]: ['fr'], [hashText('Protect your data')]: ['de'] });
    expect(recordTranslated(start, v1, 'de', ['privacy.md']).recorded).toEqual(['privacy.md']);
    expect(recordTranslated(start, v1, 'fr', ['hero.cta', 'privacy.md', 'hero.tilte']).unmatched).toEqual(['hero.cta', 'privacy.md', 'hero.tilte']);
  });

  it('drops the entries of strings English no longer has', () => {
    const start = recordTranslated(emptyLock(), v1, 'de').lock;
    const v2 = sources({ en: { 'hero.title': 'Protect data' }, de: { 'hero.title': 'Daten schützen' } });
    expect(Object.keys(recordTranslated(start, v2, 'de').lock.strings)).toEqual(['hero.title']);
  });

  it('writes one line per key, sorted, with the languages of each hash, and reads it back', () => {
    const lock = recordTranslated(recordTranslated(emptyLock(), v1, 'fr').lock, v1, 'de').lock;
    const text = formatLock(lock);
    expect(text).toContain(`    "hero.title": { "${hashText('Protect data')}": "de fr" },\n`);
    expect(text.indexOf('"hero.cta"')).toBeLessThan(text.indexOf('"hero.title"'));
    expect(parseLock(text)).toEqual(lock);
    expect(parseLock('{"strings": {"a": {"x": 1}}}')).toEqual({ error: expect.stringContaining('strings.a.x') });
    expect(parseLock('{')).toEqual({ error: expect.stringContaining('not valid JSON') });
  });
});
