/**
 * `sitegen check`'s facts rules on copies of the real content: a duration the service applies,
 * written by hand in any language, is refused with the placeholder to use; a language whose legal
 * text leaves out a fact English states is refused; the shipped content passes both.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkDataFacts, factsStated, handWrittenFacts } from '../../../cli/check/data-facts.ts';
import { formatProblem } from '../../../cli/site/errors.ts';
import { PROJECT_ROOT } from '../../../cli/paths.ts';
import { DATA_FACT_NAMES } from '../../../ingest/contract/data-facts.ts';
import { LANGUAGES } from '../../../cli/site/languages.ts';

const roots: string[] = [];
afterEach(() => {
  while (roots.length > 0) rmSync(roots.pop()!, { recursive: true, force: true });
});

/** A copy of the real content folder, with `edit` to change one file. */
function contentCopy() {
  const root = mkdtempSync(join(tmpdir(), 'facts-'));
  roots.push(root);
  cpSync(join(PROJECT_ROOT, 'content'), join(root, 'content'), { recursive: true });
  const edit = (file: string, change: (text: string) => string) => writeFileSync(join(root, file), change(readFileSync(join(root, file), 'utf8')));
  return { root, edit, check: () => checkDataFacts(join(root, 'content'), root).map(formatProblem) };
}

describe('the data facts in the texts', () => {
  it('passes the shipped content: every fact through its placeholder, in every language', () => {
    expect(checkDataFacts(join(PROJECT_ROOT, 'content'), PROJECT_ROOT)).toEqual([]);
  });

  it("states every fact of the English privacy and cookie texts in each language's, through the placeholder", () => {
    for (const page of ['privacy.md', 'cookies.md']) {
      const english = factsStated(readFileSync(join(PROJECT_ROOT, 'content/pages/en', page), 'utf8'));
      if (page === 'privacy.md') expect([...english].sort()).toEqual(expect.arrayContaining(['contactYears', 'consentEventYears', 'linkDays', 'resendMinutes', 'mailsPerDay']));
      for (const lang of LANGUAGES) {
        const stated = factsStated(readFileSync(join(PROJECT_ROOT, 'content/pages', lang, page), 'utf8'));
        expect([...english].filter((fact) => !stated.has(fact)), `${lang}/${page}`).toEqual([]);
      }
    }
  });

  it('finds a duration of the table written by hand, in digits or words, in each language', () => {
    expect(handWrittenFacts('en', 'a link valid for 7 days, kept two years')).toEqual([
      { written: '7 days', fact: 'linkDays' },
      { written: 'two years', fact: 'contactYears' },
    ]);
    expect(handWrittenFacts('es', 'válido durante 7 días')).toEqual([{ written: '7 días', fact: 'linkDays' }]);
    expect(handWrittenFacts('pt', 'durante 3 anos')).toEqual([{ written: '3 anos', fact: 'consentEventYears' }]);
    expect(handWrittenFacts('fr', 'pendant 7\u00a0jours')).toEqual([{ written: '7\u00a0jours', fact: 'linkDays' }]);
    expect(handWrittenFacts('de', 'spätestens 25 Stunden nach, innerhalb von 30 Tagen')).toEqual([
      { written: '30 Tagen', fact: 'backupDays' },
      { written: '25 Stunden', fact: 'mailCountHours' },
    ]);
    expect(handWrittenFacts('it', 'ogni 10 minuti')).toEqual([{ written: '10 minuti', fact: 'resendMinutes' }]);
    expect(handWrittenFacts('nl', 'gedurende 24 uur')).toEqual([{ written: '24 uur', fact: 'dailyCounterHours' }]);
  });

  it('leaves alone what is no fact of the table: other numbers, a placeholder, "a minute", a cookie lifetime in a table', () => {
    expect(handWrittenFacts('en', 'within one month, 18 years of age, six years under the Code, {{linkDays}} days')).toEqual([]);
    expect(handWrittenFacts('de', 'innerhalb einer Minute, eine Minute lang')).toEqual([]);
    const f = contentCopy();
    f.edit('content/pages/de/cookies.md', (t) => `${t}\n| \`_x\` | Anbieter | Zweck | 2 Jahre |\n`);
    expect(f.check()).toEqual([]);
  });

  it('refuses a duration written by hand in a legal text and in a string, naming file, line and placeholder', () => {
    const f = contentCopy();
    // The summary and the retention section both state it.
    f.edit('content/pages/fr/privacy.md', (t) => t.replaceAll('{{backupDays}}', '30'));
    f.edit('content/locales/it.json', (t) => t.replace(/\{\{linkDays\}\} giorni/, '7 giorni'));
    expect(f.check()).toEqual([
      expect.stringMatching(/^content\/pages\/fr\/privacy\.md:\d+: writes "30 jours" by hand: use \{\{backupDays\}\} \(30 days, the number the service applies\) \[fact_by_hand\]$/),
      expect.stringMatching(/^content\/pages\/fr\/privacy\.md:\d+: writes "30 jours" by hand: use \{\{backupDays\}\} \(30 days, the number the service applies\) \[fact_by_hand\]$/),
      'content/pages/fr/privacy.md:1: states no {{backupDays}}, which pages/en/privacy.md states [fact_missing]',
      expect.stringMatching(/^content\/locales\/it\.json:\d+: writes "7 giorni" by hand: use \{\{linkDays\}\} \(7 days, the number the service applies\) \[fact_by_hand\]$/),
    ]);
  });

  it('refuses a language whose legal text leaves out a fact the English text states', () => {
    const f = contentCopy();
    f.edit('content/pages/nl/privacy.md', (t) => t.replaceAll('{{consentEventYears}} jaar', 'enkele jaren'));
    expect(f.check()).toEqual(['content/pages/nl/privacy.md:1: states no {{consentEventYears}}, which pages/en/privacy.md states [fact_missing]']);
  });

  it('has a placeholder for every fact, named by its unit', () => {
    for (const name of DATA_FACT_NAMES) expect(name).toMatch(/^[a-z][A-Za-z]+(Days|Minutes|Hours|Years|PerDay)$/);
  });
});
