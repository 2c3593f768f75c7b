import { describe, expect, it } from 'vitest';
import type { ItemStatus } from '../../../cli/site/translations/translation-lock.ts';
import { statusReport } from '../../../cli/status/status-table.ts';

const item = (lang: ItemStatus['lang'], kind: ItemStatus['kind'], name: string, state: ItemStatus['state']): ItemStatus => ({ lang, kind, item: name, state, recorded: state !== 'missing' });

describe('statusReport', () => {
  it('prints languages × pages, then what to update per language and how to record it', () => {
    const report = statusReport(
      [
        item('es', 'string', 'nav.about', 'current'),
        item('es', 'string', 'hero.title', 'current'),
        item('es', 'string', 'meta.privacy.title', 'current'),
        item('es', 'page', 'privacy.md', 'current'),
        item('es', 'page', 'healthcare.md', 'current'),
        item('de', 'string', 'nav.about', 'current'),
        item('de', 'string', 'hero.title', 'outdated'),
        item('de', 'string', 'meta.privacy.title', 'missing'),
        item('de', 'page', 'privacy.md', 'outdated'),
        item('de', 'page', 'healthcare.md', 'missing'),
      ],
      ['es', 'de'],
    );
    expect(report).toBe(
      [
        'lang  every page  home        privacy                healthcare',
        'es    up to date  up to date  up to date             up to date',
        'de    up to date  1 outdated  1 outdated, 1 missing  missing',
        '',
        'de outdated: hero.title, privacy.md',
        'de missing: meta.privacy.title, healthcare.md',
        '',
        'After updating a translation, record it: sitegen translated <lang> <key, key prefix or page.md>…',
        '',
      ].join('\n'),
    );
  });

  it('says so when every translation is up to date', () => {
    expect(statusReport([item('fr', 'string', 'nav.about', 'current')], ['fr'])).toBe('lang  every page\nfr    up to date\n\nEvery translation is up to date with the English text.\n');
  });
});
