import { cpSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BuildResult } from '../../../cli/pipeline/build-site.ts';
import { llmsTxtFile } from '../../../cli/pipeline/discovery/llms-txt.ts';
import { copiedSiteBuild, identities, renderedFiles } from '../../helpers/copied-site-build.ts';

/** Every file under `dir` with its bytes, by path relative to it. */
function filesOf(dir: string): Map<string, Buffer> {
  const files = (readdirSync(dir, { recursive: true }) as string[]).filter((f) => statSync(join(dir, f)).isFile()).sort();
  return new Map(files.map((f) => [f, readFileSync(join(dir, f))]));
}

/** Expects an output folder to hold the same files as another (or as a folder read before), byte for byte, compared file by file so a failure names the file. */
function expectSameOutput(actual: string, expected: string | Map<string, Buffer>): void {
  const a = filesOf(actual);
  const b = typeof expected === 'string' ? filesOf(expected) : expected;
  expect([...a.keys()]).toEqual([...b.keys()]);
  for (const [file, bytes] of b) expect(a.get(file)?.equals(bytes), file).toBe(true);
}

describe('the build cache', () => {
  const { contentDir, outDir, build } = copiedSiteBuild('cache');
  let first: BuildResult;

  beforeAll(async () => {
    first = await build();
    expect(first.errors).toEqual([]);
  }, 120_000);

  it('renders every page the first time, and a build with nothing changed writes nothing', async () => {
    expect(renderedFiles(first)).toHaveLength(first.pages.length);
    const before = identities(outDir);
    const again = await build();
    expect(again.errors).toEqual([]);
    expect(again.pages.map((p) => p.file)).toEqual(first.pages.map((p) => p.file));
    expect(renderedFiles(again)).toEqual([]);
    expect(again.filesWritten).toBe(0);
    expect(identities(outDir)).toEqual(before);
  }, 120_000);

  it('renders again only the page that reads a changed string, and its output is a clean build\'s, byte for byte', async () => {
    const original = filesOf(outDir);
    const file = join(contentDir, 'locales', 'de.json');
    const strings = readFileSync(file, 'utf8');
    writeFileSync(file, strings.replace('"title": "Unsere Mission"', '"title": "Unsere Mission heute"'));
    const changed = await build();
    expect(changed.errors).toEqual([]);
    expect(renderedFiles(changed)).toEqual(['de/about.html']);
    expect(readFileSync(join(outDir, 'de', 'about.html'), 'utf8')).toContain('Unsere Mission heute');
    // The output checks do not run again: the first build's checks recorded each page's
    // skeleton as they scanned it, and a text change leaves the page's skeleton as it was.
    expect(changed.stageMs.verify).toBeUndefined();
    // The first build left a spare of links to its output: only the page and its two
    // compressed copies are written, no unchanged file is linked again.
    expect(changed.filesWritten).toBe(3);

    const cleanDir = join(mkdtempSync(join(tmpdir(), 'cache-clean-')), 'dist');
    const clean = await build({ outDir: cleanDir, cache: false });
    expect(renderedFiles(clean)).toHaveLength(clean.pages.length);
    expectSameOutput(outDir, cleanDir);

    // Back to the first text: the folder written into shares its unchanged files with the
    // output it replaced; neither is written through, so the first output comes back intact.
    writeFileSync(file, strings);
    expect(renderedFiles(await build())).toEqual(['de/about.html']);
    expectSameOutput(outDir, original);
  }, 180_000);

  it('renders again the page that reads a changed English string in every language built, since each falls back to it', async () => {
    const file = join(contentDir, 'locales', 'en.json');
    const strings = readFileSync(file, 'utf8');
    writeFileSync(file, strings.replace('"title": "Our mission"', '"title": "Our mission today"'));
    // German says the title in its own words, but a page records the English text beside its
    // own (the fallback): the German about page is rendered again with the English one.
    const changed = await build();
    expect(changed.errors).toEqual([]);
    expect(renderedFiles(changed).sort()).toEqual(['about.html', 'de/about.html']);
    writeFileSync(file, strings);
    expect(renderedFiles(await build()).sort()).toEqual(['about.html', 'de/about.html']);
  }, 180_000);

  it('renders again only the page added as Markdown whose text changed', async () => {
    await build();
    const file = join(contentDir, 'pages', 'de', 'healthcare.md');
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, `${text}\nEin neuer Absatz über Pseudonymisierung.\n`);
    try {
      const changed = await build();
      expect(changed.errors).toEqual([]);
      const rendered = renderedFiles(changed);
      expect(rendered).toHaveLength(1);
      expect(readFileSync(join(outDir, rendered[0]!), 'utf8')).toContain('Ein neuer Absatz über Pseudonymisierung.');
    } finally {
      writeFileSync(file, text);
    }
    expect(renderedFiles(await build())).toHaveLength(1);
  }, 120_000);

  it('completes a spare it cannot trust (another folder put in its place) by linking over its files, never writing through them', async () => {
    expect((await build()).errors).toEqual([]);
    const spare = join(dirname(outDir), '.sitegen-cache', 'dist', 'spare');
    cpSync(spare, `${spare}.copy`, { recursive: true });
    rmSync(spare, { recursive: true });
    renameSync(`${spare}.copy`, spare);
    const before = filesOf(outDir);
    const file = join(contentDir, 'locales', 'de.json');
    const strings = readFileSync(file, 'utf8');
    writeFileSync(file, strings.replace('"title": "Unsere Mission"', '"title": "Unsere Mission morgen"'));
    try {
      const changed = await build();
      expect(changed.errors).toEqual([]);
      expect(renderedFiles(changed)).toEqual(['de/about.html']);
      const after = filesOf(outDir);
      expect([...after.keys()]).toEqual([...before.keys()]);
      for (const [path, bytes] of before) if (!path.startsWith('de/about.html')) expect(after.get(path)?.equals(bytes), path).toBe(true);
      // The output it replaced is the spare now, as it was: no link was written through.
      expectSameOutput(spare, before);
    } finally {
      writeFileSync(file, strings);
      await build(); // the page back as the tests after this one expect it
    }
  }, 180_000);

  it('rewrites a page changed by hand in the output, even though its inputs did not change', async () => {
    const page = join(outDir, 'about.html');
    const built = readFileSync(page);
    writeFileSync(page, 'edited by hand');
    const result = await build();
    expect(result.errors).toEqual([]);
    expect(renderedFiles(result)).toEqual(['about.html']);
    expect(readFileSync(page).equals(built)).toBe(true);
  }, 120_000);

  it('checks the pages it renders again against the whole site: a broken link added to one page fails the build', async () => {
    await build(); // the checks' inputs recorded, so that only a change to them runs the checks
    const file = join(contentDir, 'pages', 'de', 'cookies.md');
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, `${text}\nSiehe [Preise](/de/preise).\n`);
    // A page rendered again in the same build is written into the spare, where its file may be a
    // link to the served one: the served file must stay as it was.
    const strings = join(contentDir, 'locales', 'en.json');
    const english = readFileSync(strings, 'utf8');
    writeFileSync(strings, english.replace('"title": "Our mission"', '"title": "Our mission today"'));
    const before = identities(outDir);
    const served = filesOf(outDir);
    try {
      const broken = await build();
      expect(broken.errors.map((e) => `${e.file}: ${e.code}`)).toEqual(['de/cookies.html: output_link_broken']);
      expect(identities(outDir)).toEqual(before);
      expectSameOutput(outDir, served);
    } finally {
      writeFileSync(strings, english);
      writeFileSync(file, text);
    }
    expect((await build()).errors).toEqual([]);
  }, 120_000);

  it('renders the social card of the one page whose title changed, and no other; the page points to it; llms.txt of its language shows the title', async () => {
    const cardOf = (file: string) => readFileSync(join(outDir, file), 'utf8').match(/<meta property="og:image" content="([^"]+)"/)![1]!;
    const langs = [...new Set(first.pages.map((p) => p.lang))];
    expect(langs).toContain('de');
    const llms = () => new Map(langs.map((lang) => [lang, readFileSync(join(outDir, llmsTxtFile(lang)), 'utf8')]));
    expect((await build()).errors).toEqual([]);
    const before = new Map(first.pages.map((p) => [p.file, cardOf(p.file)]));
    const llmsBefore = llms();
    const file = join(contentDir, 'locales', 'de.json');
    const strings = readFileSync(file, 'utf8');
    // A title no build has shown before, so that its card is not in the cache yet.
    const title = `Über uns ${process.pid}-${Date.now()}`;
    writeFileSync(file, strings.replace('"title": "Über uns – {{brand}}"', `"title": "${title} – {{brand}}"`));
    try {
      const changed = await build();
      expect(changed.errors).toEqual([]);
      expect(changed.cardsRendered).toBe(1);
      const moved = first.pages.filter((p) => cardOf(p.file) !== before.get(p.file)).map((p) => p.file);
      expect(moved).toEqual(['de/about.html']);
      expect(readFileSync(join(outDir, 'de', 'about.html'), 'utf8')).toContain(`<meta property="og:image:alt" content="MaskWise: ${title}"/>`);
      const card = readFileSync(join(outDir, new URL(cardOf('de/about.html')).pathname));
      expect([card.readUInt32BE(16), card.readUInt32BE(20)]).toEqual([1200, 630]);
      // The other languages' cards and llms.txt are kept from the last build (cli/pipeline/discovery/discovery-memo.ts): as they were.
      const llmsChanged = llms();
      expect(llmsChanged.get('de')).toContain(`- [${title}](`);
      for (const lang of langs.filter((l) => l !== 'de')) expect(llmsChanged.get(lang), lang).toBe(llmsBefore.get(lang));
    } finally {
      writeFileSync(file, strings);
    }
    const back = await build();
    expect(back.cardsRendered).toBe(0);
    expect(cardOf('de/about.html')).toBe(before.get('de/about.html'));
    expect(llms()).toEqual(llmsBefore);
  }, 180_000);

  it('moves the sitemap date of the one page whose text changed, and of no other page', async () => {
    const lastmods = () => new Map([...readFileSync(join(outDir, 'sitemap.xml'), 'utf8').matchAll(/<loc>([^<]+)<\/loc>\n    <lastmod>([^<]+)<\/lastmod>/g)].map((m) => [m[1]!, m[2]!]));
    expect((await build()).errors).toEqual([]);
    const before = lastmods();
    expect(before.size).toBe(readFileSync(join(outDir, 'sitemap.xml'), 'utf8').match(/<url>/g)!.length);
    const file = join(contentDir, 'locales', 'de.json');
    const strings = readFileSync(file, 'utf8');
    writeFileSync(file, strings.replace('"title": "Unsere Mission"', '"title": "Unsere Mission heute"'));
    try {
      const changed = await build({ now: new Date('2026-03-02T08:30:00Z') });
      expect(changed.errors).toEqual([]);
      const after = lastmods();
      const moved = [...after].filter(([url, time]) => before.get(url) !== time);
      expect(moved).toEqual([[expect.stringMatching(/\/de\/about$/), '2026-03-02T08:30:00Z']]);
      // The checks do not read the dates: a text change that moves one still does not run them again.
      expect(changed.stageMs.verify).toBeUndefined();
    } finally {
      writeFileSync(file, strings);
    }
    expect((await build({ now: new Date('2026-03-03T00:00:00Z') })).errors).toEqual([]);
  }, 180_000);

  it('builds from scratch with the cache turned off (--no-cache): every page rendered and written into a fresh folder, whose records serve the next build', async () => {
    const served = identities(outDir);
    const result = await build({ cache: false });
    expect(result.errors).toEqual([]);
    expect(renderedFiles(result)).toHaveLength(result.pages.length);
    expect(result.filesWritten).toBeGreaterThan(result.pages.length);
    // Every page is a new file: none of the folder served before is kept (the cached assets are links to the assets' cache, in both).
    const fresh = identities(outDir);
    expect([...fresh].filter(([file, identity]) => file.endsWith('.html') && served.get(file) === identity)).toEqual([]);
    // The next build with one string changed renders that page alone and writes only its files.
    const file = join(contentDir, 'locales', 'de.json');
    const strings = readFileSync(file, 'utf8');
    try {
      writeFileSync(file, strings.replace('"title": "Unsere Mission"', '"title": "Unsere Mission (nach --no-cache)"'));
      const next = await build();
      expect(renderedFiles(next)).toEqual(['de/about.html']);
      expect(next.filesWritten).toBe(3);
    } finally {
      writeFileSync(file, strings);
    }
    expect(renderedFiles(await build())).toEqual(['de/about.html']);
  }, 180_000);
});
