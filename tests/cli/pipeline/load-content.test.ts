import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContent, translationGaps } from '../../../cli/pipeline/load-content.ts';
import { formatProblem } from '../../../cli/site/errors.ts';
import { LANGUAGES } from '../../../cli/site/languages.ts';
import { contentCopy } from '../../helpers/dev-server.ts';

describe('translation gaps', () => {
  it('regression: found from the messages the content stage loaded, the same problems at the same file and line as from the files read again', () => {
    const contentDir = contentCopy();
    // German loses a key and uses a placeholder without a value.
    const file = join(contentDir, 'locales', 'de.json');
    const de = JSON.parse(readFileSync(file, 'utf8')) as { nav: Record<string, string>; footer: Record<string, string> };
    delete de.nav.about;
    de.footer.quickLinks = `${de.footer.quickLinks} {{anno}}`;
    writeFileSync(file, JSON.stringify(de, null, 2));
    const loaded = loadContent(contentDir, LANGUAGES);
    if (!loaded.ok) throw new Error(loaded.problems.map(formatProblem).join('\n'));

    const fromFiles = translationGaps(contentDir, LANGUAGES, false);
    const fromLoaded = translationGaps(contentDir, LANGUAGES, false, loaded.content.messages);
    const lines = fromLoaded.errors.map(formatProblem);
    expect(lines.some((line) => line.includes('nav.about'))).toBe(true);
    expect(lines.some((line) => line.includes('{{anno}}'))).toBe(true);
    expect(lines).toEqual(fromFiles.errors.map(formatProblem));
    expect(translationGaps(contentDir, LANGUAGES, true, loaded.content.messages).warnings.map(formatProblem)).toEqual(translationGaps(contentDir, LANGUAGES, true).warnings.map(formatProblem));
  });
});
