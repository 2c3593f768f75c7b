import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cacheDirOf } from '../../../../cli/pipeline/cache/output-store.ts';
import { llmsTxtFile } from '../../../../cli/pipeline/discovery/llms-txt.ts';
import { copiedSiteBuild } from '../../../helpers/copied-site-build.ts';

/** The text of a build's `llms.txt` of English and German, by language. */
const llmsOf = (outDir: string) => new Map(['en', 'de'].map((lang) => [lang, readFileSync(join(outDir, llmsTxtFile(lang as 'en' | 'de')), 'utf8')]));

/** When a language's record was last written. */
const recordFile = (outDir: string, lang: string) => join(cacheDirOf(outDir), 'discovery', `${lang}.json`);
const writtenAt = (outDir: string, lang: string) => statSync(recordFile(outDir, lang)).mtimeMs;

describe('the discovery memo: each language\'s card texts and llms.txt kept by the key of what they read', () => {
  const { contentDir, outDir, build } = copiedSiteBuild('discovery');

  beforeAll(async () => {
    expect((await build()).errors).toEqual([]);
  }, 120_000);

  it('makes German\'s again when only the front matter of a German Markdown page changed (its key counts the page file\'s hash), as a clean build does, and keeps English\'s record unwritten', async () => {
    const file = join(contentDir, 'pages', 'de', 'healthcare.md');
    const text = readFileSync(file, 'utf8');
    const before = llmsOf(outDir);
    const englishWritten = writtenAt(outDir, 'en');
    const description = `Maskierte Patientendaten, neu beschrieben ${process.pid}-${Date.now()}, für Test- und Entwicklungskopien.`;
    writeFileSync(file, text.replace(/^description: .*$/m, `description: ${description}`));
    try {
      const changed = await build();
      expect(changed.errors).toEqual([]);
      const after = llmsOf(outDir);
      expect(after.get('de')).toContain(`: ${description}`);
      expect(after.get('en')).toBe(before.get('en'));
      expect(writtenAt(outDir, 'en')).toBe(englishWritten);
      const cleanDir = join(mkdtempSync(join(tmpdir(), 'discovery-clean-')), 'dist');
      expect((await build({ outDir: cleanDir, cache: false })).errors).toEqual([]);
      expect(after).toEqual(llmsOf(cleanDir));
    } finally {
      writeFileSync(file, text);
    }
    expect((await build()).errors).toEqual([]);
    expect(llmsOf(outDir)).toEqual(before);
  }, 180_000);

  it('makes a language again when its record cannot be read, as it was, and records it anew', async () => {
    const before = llmsOf(outDir);
    // Its key still the right one, but not what a build writes: an llms.txt that is not text, a title short.
    const record = JSON.parse(readFileSync(recordFile(outDir, 'en'), 'utf8'));
    writeFileSync(recordFile(outDir, 'en'), JSON.stringify({ ...record, llms: 42, cards: { ...record.cards, titles: record.cards.titles.slice(1) } }));
    // A German string changed: the build does not stop at the build record, and English's inputs are as they were.
    const strings = join(contentDir, 'locales', 'de.json');
    const text = readFileSync(strings, 'utf8');
    writeFileSync(strings, text.replace('"title": "Unsere Mission"', '"title": "Unsere Mission heute"'));
    try {
      expect((await build()).errors).toEqual([]);
      expect(llmsOf(outDir).get('en')).toBe(before.get('en'));
      expect(JSON.parse(readFileSync(recordFile(outDir, 'en'), 'utf8'))).toMatchObject({ version: 2, llms: before.get('en') });
    } finally {
      writeFileSync(strings, text);
    }
  }, 180_000);
});
