import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PATHS, PROJECT_ROOT } from '../../cli/paths.ts';
import { loadContentPages } from '../../cli/site/markdown/content-pages.ts';
import { fileForPath, siteRoutes } from '../../cli/site/routes.ts';
import { testFolder, testOutDir } from '../helpers/test-folders.ts';

/** The pages a build of one language writes: its routes (fixed pages, service pages, aliases, its Markdown pages) and its 404 page. */
const pagesOf = (lang: 'en' | 'es') => siteRoutes(loadContentPages(DEFAULT_PATHS.contentDir).pages).allRoutes([lang]).length + 1;

function sitegen(...args: string[]) {
  const run = spawnSync(process.execPath, [join(PROJECT_ROOT, 'cli', 'bin.js'), ...args], { encoding: 'utf8' });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('sitegen CLI', () => {
  it('rejects an unknown --lang with the valid codes and exit code 2', () => {
    const run = sitegen('build', '--lang', 'en,xx', '--out', testOutDir('sg-'));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('"xx"');
    expect(run.stderr).toContain('all, en, es, pt, fr, de, it, nl');
  });

  it('rejects an unknown option and a malformed --site-url with exit code 2', () => {
    expect(sitegen('build', '--colour').code).toBe(2);
    const run = sitegen('build', '--site-url', 'not a url', '--out', testOutDir('sg-'));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--site-url');
  });

  it('builds only Spanish with --lang es, with canonical URLs from --site-url', () => {
    const out = testOutDir('sg-');
    const run = sitegen('build', '--lang', 'es', '--out', out, '--site-url', 'https://staging.example.org');
    expect(run.code).toBe(0);
    // 11 fixed pages, 20 service pages, /aviso-legal, the pages of content/pages/es/ (/es/sanidad, /es/accesibilidad, …), 404.
    expect(pagesOf('es')).toBeGreaterThanOrEqual(35);
    expect(run.stdout).toContain(`built ${pagesOf('es')} pages in 1 language(s)`);
    expect(readdirSync(out).sort()).toEqual([
      '.sitegen-output', '.well-known', '_headers', '_redirects', 'apple-touch-icon.png', 'assets',
      'aviso-legal.html', 'aviso-legal.html.br', 'aviso-legal.html.gz', 'es', 'es.html', 'es.html.br', 'es.html.gz',
      'favicon.ico', 'favicon.svg', 'icon-192.png', 'icon-512.png', 'icon-maskable-512.png', 'manifest.webmanifest',
      'robots.txt', 'sitemap.xml', 'sitemap.xml.br', 'sitemap.xml.gz',
    ]);
    // The language's image, and the folder of its pages' own cards.
    expect(readdirSync(join(out, 'assets', 'social'))).toEqual(['es', expect.stringMatching(/^es\.[0-9a-f]{10}\.png$/)]);
    const sitemap = spawnSync('cat', [join(out, 'sitemap.xml')], { encoding: 'utf8' }).stdout;
    expect(sitemap).toContain('<loc>https://staging.example.org/es/privacidad</loc>');
  });

  it('builds the content folder given by --content, and prints each stage\'s time, the render time per page and the peak memory with --timings', () => {
    const content = join(mkdtempSync(join(tmpdir(), 'sg-content-')), 'content');
    cpSync(DEFAULT_PATHS.contentDir, content, { recursive: true });
    writeFileSync(join(content, 'pages', 'en', 'release-notes.md'), '---\ntitle: Release notes\ndescription: What changed in {{brand}} from one version to the next, and what each change means for your masking rules.\nslug: release-notes\n---\n\nVersion 2 masks **views** too.\n');
    const out = testOutDir('sg-');
    const run = sitegen('build', '--lang', 'en', '--content', content, '--out', out, '--timings');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`built ${pagesOf('en') + 1} pages in 1 language(s)`); // the project's content in English, and release-notes.md
    expect(readFileSync(join(out, 'release-notes.html'), 'utf8')).toContain('Version 2 masks <strong>views</strong> too.');
    expect(run.stdout).toMatch(/^sitegen: timings \(ms\): load \d+, assets \d+, render \d+ \(\d+\.\d\d per page\), write \d+, verify \d+, host \d+, flush \d+; peak memory \d+ MB$/m);
  });

  it('explains a rebuild after one German string changed: exactly the pages that show it are rendered, the reason naming the key', () => {
    const content = join(testFolder('sg-content-'), 'content');
    cpSync(DEFAULT_PATHS.contentDir, content, { recursive: true });
    const out = testOutDir('sg-');
    expect(sitegen('build', '--lang', 'en,de', '--content', content, '--out', out).code).toBe(0);
    const german = join(content, 'locales', 'de.json');
    const messages = JSON.parse(readFileSync(german, 'utf8')) as { about: { mission: { title: string } } };
    const changed = `${messages.about.mission.title} (neu)`;
    messages.about.mission.title = changed;
    writeFileSync(german, JSON.stringify(messages, null, 2));
    const run = sitegen('build', '--lang', 'en,de', '--content', content, '--out', out, '--explain');
    expect(run.code).toBe(0);
    const plan = run.stdout.split('\n').filter((line) => /^ {2}(render|keep|delete|checks) /.test(line)).map((line) => line.trim().split(/\s{2,}/));
    const rendered = plan.filter(([decision]) => decision === 'render');
    const showing = (readdirSync(out, { recursive: true }) as string[]).filter((file) => file.endsWith('.html') && readFileSync(join(out, file), 'utf8').includes(changed));
    expect(showing.length).toBeGreaterThan(0);
    expect(rendered.map(([, path]) => fileForPath(path!)).sort()).toEqual(showing.sort());
    for (const [, , reason] of rendered) expect(reason).toBe('strings it reads changed: about.mission.title');
    expect(plan.filter(([decision]) => decision === 'keep').length).toBe(pagesOf('en') + siteRoutes(loadContentPages(DEFAULT_PATHS.contentDir).pages).allRoutes(['de']).length + 1 - rendered.length);
  });

  it('refuses to empty a folder it did not create', () => {
    const out = testFolder('sg-');
    writeFileSync(join(out, 'precious.txt'), 'keep me');
    const run = sitegen('build', '--lang', 'en', '--out', out);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('not made by sitegen');
    expect(readdirSync(out)).toEqual(['precious.txt']);
  });
});
