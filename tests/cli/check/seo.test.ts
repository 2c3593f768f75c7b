import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkSeo } from '../../../cli/check/seo.ts';
import { formatProblem } from '../../../cli/site/errors.ts';
import { DEFAULT_PATHS, PROJECT_ROOT } from '../../../cli/paths.ts';

/** A copy of the real content to break one text at a time; `check` runs the SEO check on it. */
function fixture() {
  const root = mkdtempSync(join(tmpdir(), 'check-seo-'));
  cpSync(DEFAULT_PATHS.contentDir, join(root, 'content'), { recursive: true });
  const edit = (file: string, change: (text: string) => string) => writeFileSync(join(root, file), change(readFileSync(join(root, file), 'utf8')));
  const lineOf = (file: string, needle: string) => readFileSync(join(root, file), 'utf8').split('\n').findIndex((l) => l.includes(needle)) + 1;
  return { edit, lineOf, check: () => checkSeo(join(root, 'content'), root).map(formatProblem) };
}

describe('sitegen check: what search results show', () => {
  it('finds nothing to report in the shipped content', () => {
    expect(checkSeo(DEFAULT_PATHS.contentDir, PROJECT_ROOT)).toEqual([]);
  });

  it('reports a title over 60 characters once the brand is filled in, at its line', () => {
    const f = fixture();
    f.edit('content/locales/en.json', (t) => t.replace('"About us — {{brand}}"', '"About us: the people who build {{brand}}, and why they do it — {{brand}}"'));
    expect(f.check()).toEqual([
      `content/locales/en.json:${f.lineOf('content/locales/en.json', '"About us: the people')}: the title is 70 characters ("About us: the people who build MaskWise, and why they do it — MaskWise"); search results cut it after about 60: shorten it [seo_title_length]`,
    ]);
  });

  it('reports a description out of 70–160 in a page added as Markdown, at its front matter line', () => {
    const f = fixture();
    const file = 'content/pages/it/healthcare.md';
    f.edit(file, (t) => t.replace(/^description: .*$/m, 'description: Mascheramento per la sanità.'));
    expect(f.check()).toEqual([
      `${file}:${f.lineOf(file, 'description:')}: the description is 26 characters ("Mascheramento per la sanità."); search results show 70–160: say more about the page [seo_description_length]`.replace('26', String([...'Mascheramento per la sanità.'].length)),
    ]);
  });

  it('reports the same title or description on two pages of one language', () => {
    const f = fixture();
    const file = 'content/locales/de.json';
    const about = JSON.parse(readFileSync(join(DEFAULT_PATHS.contentDir, 'locales', 'de.json'), 'utf8')).meta.about as { title: string; description: string };
    f.edit(file, (t) => t.replace('"Kontakt – {{brand}}"', JSON.stringify(about.title)).replace(/("contact": \{\n\s*"title": [^\n]*\n\s*"description": )"[^"]*"/, `$1${JSON.stringify(about.description)}`));
    const line = f.lineOf(file, '"contact": {');
    expect(f.check()).toEqual([
      `${file}:${line + 1}: the title "${about.title.replace('{{brand}}', 'MaskWise')}" is also ${file}:${f.lineOf(file, '"about": {') + 1}'s; each indexed page needs its own [seo_title_duplicate]`,
      `${file}:${line + 2}: the description "${about.description.replaceAll('{{brand}}', 'MaskWise')}" is also ${file}:${f.lineOf(file, '"about": {') + 2}'s; each indexed page needs its own [seo_description_duplicate]`,
    ]);
  });
});
