import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BuildOptions, BuildResult } from '../../../../cli/pipeline/build-site.ts';
import { buildInputsKey } from '../../../../cli/pipeline/cache/build-record.ts';
import { deployDirOf } from '../../../../cli/host/deploy-files.ts';
import { DEFAULT_PATHS } from '../../../../cli/paths.ts';
import { copiedSiteBuild, identities, renderedFiles } from '../../../helpers/copied-site-build.ts';

const NOW = new Date('2026-03-01T00:00:00Z');
/** Whether a build stopped at the record: it only checked its inputs (the load stage) and wrote nothing. */
const stood = (result: BuildResult) => Object.keys(result.stageMs).join(',') === 'load' && result.filesWritten === 0 && renderedFiles(result).length === 0;

describe('the record of the last build', () => {
  const { contentDir, outDir, build } = copiedSiteBuild('record');
  let first: BuildResult;

  beforeAll(async () => {
    first = await build();
    expect(first.errors).toEqual([]);
  }, 120_000);

  it('answers a build with the same inputs and an untouched output without building: the same pages, nothing written', async () => {
    const before = identities(outDir);
    const again = await build();
    expect(stood(again), JSON.stringify(again.stageMs)).toBe(true);
    expect(again.errors).toEqual([]);
    expect(again.pages).toEqual(first.pages.map((page) => ({ ...page, rendered: false })));
    expect(again.assets).toEqual(first.assets);
    expect(identities(outDir)).toEqual(before);
  }, 120_000);

  it('builds when a content file changed, then stands again on the new content', async () => {
    const file = join(contentDir, 'locales', 'de.json');
    const strings = readFileSync(file, 'utf8');
    try {
      writeFileSync(file, strings.replace('"title": "Unsere Mission"', '"title": "Unsere Mission heute"'));
      const changed = await build();
      expect(stood(changed)).toBe(false);
      expect(renderedFiles(changed)).toEqual(['de/about.html']);
      expect(readFileSync(join(outDir, 'de', 'about.html'), 'utf8')).toContain('Unsere Mission heute');
      expect(stood(await build())).toBe(true);
    } finally {
      writeFileSync(file, strings);
    }
    expect(renderedFiles(await build())).toEqual(['de/about.html']);
  }, 120_000);

  it('builds when the output was changed by hand: a file edited, deleted or added', async () => {
    const page = join(outDir, 'about.html');
    const built = readFileSync(page);
    writeFileSync(page, 'edited by hand');
    expect(stood(await build())).toBe(false);
    expect(readFileSync(page).equals(built)).toBe(true);

    rmSync(join(outDir, 'de', 'about.html'));
    expect(stood(await build())).toBe(false);
    expect(statSync(join(outDir, 'de', 'about.html')).isFile()).toBe(true);

    writeFileSync(join(outDir, 'stray.html'), 'not built');
    expect(stood(await build())).toBe(false);
    expect(readdirSync(outDir)).not.toContain('stray.html');
    expect(stood(await build())).toBe(true);
  }, 120_000);

  it('builds when a compressed copy or an asset of the output was deleted, and puts it back (both are trusted by name when there, as the spare\'s are)', async () => {
    const copy = join(outDir, 'about.html.gz');
    const compressed = readFileSync(copy);
    rmSync(copy);
    expect(stood(await build())).toBe(false);
    expect(readFileSync(copy).equals(compressed)).toBe(true);

    const islands = join(outDir, 'assets', 'islands');
    const island = readdirSync(islands).find((name) => name.endsWith('.js'))!;
    const script = readFileSync(join(islands, island));
    rmSync(join(islands, island));
    expect(stood(await build())).toBe(false);
    expect(readFileSync(join(islands, island)).equals(script)).toBe(true);
    expect(stood(await build())).toBe(true);
  }, 120_000);

  it('builds when the nginx server block beside the output was deleted or edited, and writes only it', async () => {
    const conf = join(deployDirOf(outDir), 'nginx.conf');
    const built = readFileSync(conf, 'utf8');
    for (const change of [() => rmSync(conf), () => writeFileSync(conf, 'edited by hand')]) {
      change();
      const again = await build();
      expect(stood(again)).toBe(false);
      expect([again.filesWritten, renderedFiles(again)]).toEqual([1, []]);
      expect(readFileSync(conf, 'utf8')).toBe(built);
    }
    expect(stood(await build())).toBe(true);
  }, 120_000);

  it('answers the warnings of the build it records (--allow-missing)', async () => {
    const file = join(contentDir, 'locales', 'de.json');
    const strings = readFileSync(file, 'utf8');
    try {
      const german = JSON.parse(strings) as { about: { mission: Record<string, unknown> } };
      delete german.about.mission.title;
      writeFileSync(file, JSON.stringify(german, null, 2));
      const missing = await build({ allowMissing: true });
      expect(missing.errors).toEqual([]);
      expect(missing.warnings.map((w) => w.code)).toEqual(['key_missing']);
      const again = await build({ allowMissing: true });
      expect(stood(again)).toBe(true);
      expect(again.warnings).toEqual(missing.warnings);
      // Without --allow-missing the same content is another build: it fails on the gap.
      expect((await build()).errors.map((e) => e.code)).toEqual(['key_missing']);
    } finally {
      writeFileSync(file, strings);
    }
  }, 180_000);

  it('writes security.txt anew on another day, and only it: Expires is a year after the build\'s day; a build later the same day writes nothing', async () => {
    const securityTxt = () => readFileSync(join(outDir, '.well-known', 'security.txt'), 'utf8');
    await build();
    expect(securityTxt()).toContain('Expires: 2027-03-01T00:00:00Z\n');
    const before = identities(outDir);
    expect(stood(await build({ now: new Date('2026-03-01T23:59:00Z') })), 'later the same day').toBe(true);
    expect(identities(outDir)).toEqual(before);
    const nextDay = await build({ now: new Date('2026-03-02T08:00:00Z') });
    expect(nextDay.errors).toEqual([]);
    // No page is rendered again; what is written is security.txt and what the spare lacked of the output.
    expect(renderedFiles(nextDay)).toEqual([]);
    expect(nextDay.filesWritten).toBeLessThan(10);
    expect(securityTxt()).toContain('Expires: 2027-03-02T00:00:00Z\n');
    expect(stood(await build({ now: new Date('2026-03-02T09:00:00Z') }))).toBe(true);
    await build();
    expect(securityTxt()).toContain('Expires: 2027-03-01T00:00:00Z\n');
  }, 120_000);

  it('is written anew by a build without the cache (--no-cache), so the build after it stands', async () => {
    const fresh = await build({ cache: false });
    expect(stood(fresh)).toBe(false);
    expect(renderedFiles(fresh)).toHaveLength(fresh.pages.length);
    const before = identities(outDir);
    expect(stood(await build())).toBe(true);
    expect(identities(outDir)).toEqual(before);
  }, 180_000);
});

describe('the key of a build\'s inputs', () => {
  const contentDir = mkdtempSync(join(tmpdir(), 'record-key-content-'));
  const stylesDir = mkdtempSync(join(tmpdir(), 'record-key-styles-'));
  const options: BuildOptions = { ...DEFAULT_PATHS, contentDir, cssEntry: join(stylesDir, 'styles.css'), outDir: join(contentDir, 'dist'), now: NOW };
  beforeAll(() => {
    mkdirSync(join(contentDir, 'locales'));
    writeFileSync(join(contentDir, 'locales', 'en.json'), '{"a": "b"}');
    writeFileSync(options.cssEntry, '@import "tailwindcss";');
  });
  const key = (changes: Partial<BuildOptions> = {}) => buildInputsKey({ ...options, ...changes });

  it('is the same for the same inputs and changes with any content file, its name or bytes', () => {
    const base = key();
    expect(key()).toBe(base);
    writeFileSync(join(contentDir, 'locales', 'en.json'), '{"a": "c"}');
    const edited = key();
    expect(edited).not.toBe(base);
    writeFileSync(join(contentDir, 'locales', 'de.json'), '{}');
    expect(key()).not.toBe(edited);
    rmSync(join(contentDir, 'locales', 'de.json'));
    expect(key()).toBe(edited);
  });

  it('reads a content file through a link: a change to the file linked to changes it', () => {
    const shared = join(mkdtempSync(join(tmpdir(), 'record-key-shared-')), 'shared.json');
    writeFileSync(shared, '{"x": "1"}');
    symlinkSync(shared, join(contentDir, 'locales', 'nl.json'));
    const linked = key();
    writeFileSync(shared, '{"x": "2"}');
    expect(key()).not.toBe(linked);
    rmSync(join(contentDir, 'locales', 'nl.json'));
    rmSync(shared);
  });

  it('changes with a file in the stylesheet\'s folder (the folder Tailwind scans)', () => {
    const base = key();
    writeFileSync(join(stylesDir, 'extra.css'), '.x {}');
    expect(key()).not.toBe(base);
    rmSync(join(stylesDir, 'extra.css'));
    expect(key()).toBe(base);
  });

  it('changes with each option that changes the output: languages, site URL, --allow-missing, the day (year and security.txt\'s Expires)', () => {
    const base = key();
    const others = [
      key({ langs: ['en'] }),
      key({ siteUrl: 'https://example.org' }),
      key({ allowMissing: true }),
      key({ now: new Date('2027-03-01T00:00:00Z') }),
      key({ now: new Date('2026-03-02T00:00:00Z') }),
    ];
    expect(new Set([base, ...others]).size).toBe(6);
    expect(key({ now: new Date('2026-03-01T23:59:59Z') }), 'the same day').toBe(base);
  });
});
