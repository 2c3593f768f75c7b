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
        'lang  up to date  to update',
        'es    4 of 4      nothing',
        'de    1 of 4      home (1 outdated), privacy (1 outdated, 1 missing), healthcare (missing)',
        '',
        'de outdated: hero.title, privacy.md',
        'de missing: meta.privacy.title, healthcare.md',
        '',
        'After updating a translation, record it:',
        '  sitegen translated <lang> <key, key prefix or page.md>…',
        '',
      ].join('\n'),
    );
  });

  it('regression: fits 100 columns however many pages and strings are outdated (it printed a table 290 columns wide)', () => {
    const pages = Array.from({ length: 20 }, (_, i) => item('nl', 'page', `industry-page-number-${i}.md`, 'outdated'));
    const strings = Array.from({ length: 60 }, (_, i) => item('nl', 'string', `solutions.item${i}.description`, i % 3 ? 'outdated' : 'missing'));
    const report = statusReport([...pages, ...strings, item('nl', 'string', 'nav.about', 'current')], ['nl']);
    const lines = report.split('\n');
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(100);
    for (const name of ['industry-page-number-19 (1 outdated)', 'solutions.item59.description', 'industry-page-number-0.md']) expect(report).toContain(name);
  });

  it('says so when every translation is up to date', () => {
    expect(statusReport([item('fr', 'string', 'nav.about', 'current')], ['fr'])).toBe('lang  up to date  to update\nfr    1 of 1      nothing\n\nEvery translation is up to date with the English text.\n');
  });
});
