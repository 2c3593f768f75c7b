import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSite, type BuildOptions } from '../../../cli/pipeline/build-site.ts';
import { DEFAULT_PATHS } from '../../../cli/paths.ts';
import { formatProblem } from '../../../cli/site/errors.ts';
import { testOutDir } from '../../helpers/test-folders.ts';

/** A copy of the real content, with `change` applied to one of its files. */
function contentWith(file: string, change: (text: string) => string): string {
  const dir = mkdtempSync(join(tmpdir(), 'content-'));
  cpSync(DEFAULT_PATHS.contentDir, dir, { recursive: true });
  writeFileSync(join(dir, file), change(readFileSync(join(dir, file), 'utf8')));
  return dir;
}

const build = (options: Partial<BuildOptions>) => buildSite({ ...DEFAULT_PATHS, outDir: testOutDir(), ...options });
const withoutSignUp = (text: string) => text.replace(/\n\s*"signUp": "[^"]*",/, '');

describe('builds that never publish a broken site', () => {
  it('regression: a failed build leaves the previous output in place, untouched', async () => {
    const outDir = join(mkdtempSync(join(tmpdir(), 'served-')), 'dist');
    const good = await buildSite({ ...DEFAULT_PATHS, outDir, langs: ['en', 'de'] });
    expect(good.errors).toEqual([]);
    const before = readdirSync(outDir, { recursive: true }).sort();
    const home = readFileSync(join(outDir, 'index.html'), 'utf8');
    const broken = contentWith('pages/de/cookies.md', (t) => `${t}\nFragen an {{dpo}}.\n`);
    const failed = await buildSite({ ...DEFAULT_PATHS, contentDir: broken, outDir, langs: ['en', 'de'] });
    expect(failed.errors.length).toBeGreaterThan(0);
    expect(readdirSync(outDir, { recursive: true }).sort()).toEqual(before);
    expect(readFileSync(join(outDir, 'index.html'), 'utf8')).toBe(home);
    // Beside it, only the build cache and the deployment folder (docs/sitegen.md): no half-built folder is left behind.
    expect(readdirSync(join(outDir, '..')).sort()).toEqual(['.sitegen-cache', 'dist', 'dist-deploy']);
  });

  it('regression: one missing Markdown placeholder is reported once, at its file and line, not at every link to the page', async () => {
    const contentDir = contentWith('pages/de/cookies.md', (t) => `${t}\nFragen an {{dpo}}.\n`);
    const result = await build({ contentDir, langs: ['en', 'de'] });
    expect(result.errors.map(formatProblem)).toEqual([expect.stringMatching(/pages\/de\/cookies\.md:\d+: placeholder \{\{dpo\}\} has no value in content\/site\.json \[placeholder_unknown\]$/)]);
  });

  it('regression: a key deleted from fr.json fails the build, once, at fr.json', async () => {
    const contentDir = contentWith('locales/fr.json', withoutSignUp);
    const result = await build({ contentDir, langs: ['en', 'fr'] });
    expect(result.errors.map(formatProblem)).toEqual([expect.stringMatching(/locales\/fr\.json:\d+: key "nav\.signUp" is missing \(en has it: "Newsletter"\) \[key_missing\]$/)]);
    expect(result.pages).toEqual([]);
  });

  it('publishes with English in place of a missing key and one warning per key when allowed', async () => {
    const contentDir = contentWith('locales/fr.json', withoutSignUp);
    const result = await build({ contentDir, langs: ['en', 'fr'], allowMissing: true });
    expect(result.errors).toEqual([]);
    expect(result.warnings.map((w) => w.code)).toEqual(['key_missing']);
    expect(result.pages.length).toBeGreaterThan(0);
  });

  it('regression: an unknown placeholder in an Italian string fails the build and names the valid ones', async () => {
    const contentDir = contentWith('locales/it.json', (t) => t.replace('"cta": "Richieda una demo"', '"cta": "Richieda una demo con {{ceoName}}"'));
    const result = await build({ contentDir, langs: ['en', 'it'] });
    const [problem] = result.errors;
    expect(result.errors).toHaveLength(1);
    expect(problem).toMatchObject({ code: 'placeholder_unknown', line: expect.any(Number) });
    expect(problem!.message).toMatch(/^key "hero\.cta" uses \{\{ceoName\}\}, which has no value here; valid placeholders: the site values \{\{brand\}\}, \{\{company\}\}/);
  });

  it('regression: --lang de over the served site refuses instead of taking the other languages off it', async () => {
    const outDir = join(mkdtempSync(join(tmpdir(), 'served-')), 'dist');
    expect((await buildSite({ ...DEFAULT_PATHS, outDir, langs: ['en', 'de'] })).errors).toEqual([]);
    const before = readdirSync(outDir, { recursive: true }).sort();
    const germanOnly = await buildSite({ ...DEFAULT_PATHS, outDir, langs: ['de'] });
    expect(germanOnly.errors.map(formatProblem)).toEqual([
      `${outDir}: holds the en pages, which a build of de alone would remove; build every language (no --lang), or write this build to another folder with --out [output_languages_dropped]`,
    ]);
    expect(readdirSync(outDir, { recursive: true }).sort()).toEqual(before);
    // Into its own folder, or with the languages it had, the build goes ahead.
    expect((await build({ langs: ['de'] })).errors).toEqual([]);
    expect((await buildSite({ ...DEFAULT_PATHS, outDir, langs: ['de', 'en'] })).errors).toEqual([]);
  });

  it('refuses to replace a folder it did not make, and leaves it as it was', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'precious-'));
    writeFileSync(join(outDir, 'notes.txt'), 'mine');
    const result = await buildSite({ ...DEFAULT_PATHS, outDir, langs: ['en'] });
    expect(result.errors.map((e) => e.code)).toEqual(['output_dir_foreign']);
    expect(readdirSync(outDir)).toEqual(['notes.txt']);
    expect(existsSync(`${outDir}.building-${process.pid}`)).toBe(false);
  });
});
