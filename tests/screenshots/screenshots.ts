/**
 * `npm run screenshots`: full-page PNGs of every page of the site in one language, several or all
 * seven, at phone (390 px) and laptop (1280 px) width, for content maintainers and reviewers
 * (issue 16). Builds the site into a temporary folder (or takes an existing build with `--dist`),
 * serves it as production hosts do (the local static server) and photographs each page in
 * Chromium with reduced motion, once its fonts and images have loaded.
 *
 *   npm run screenshots                               # English, into screenshots/
 *   npm run screenshots -- --lang de                  # German: de-home-390.png, de-about-1280.png, …
 *   npm run screenshots -- --lang all --out /tmp/shots
 *   npm run screenshots -- --lang fr --dist dist      # the build already in dist/ (npm run build)
 *   npm run screenshots -- --lang es --page home,about # only these pages (names as in the files)
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Browser } from '@playwright/test';
import { DEFAULT_PATHS } from '../../cli/paths.ts';
import { createStaticServer } from '../../cli/serve/static-server.ts';
import { loadContentPages } from '../../cli/site/markdown/content-pages.ts';
import { formatProblem, type Problem } from '../../cli/site/errors.ts';
import { LANGUAGES, parseLangList, type Lang } from '../../cli/site/languages.ts';
import { fileForPath, pathFor, siteRoutes } from '../../cli/site/routes.ts';
import { pageShots, SHOT_WIDTHS, shotFile, type PageShot } from './page-shots.ts';

const USAGE = `usage: npm run screenshots -- [--lang <${LANGUAGES.join('|')}|all|de,fr>] [--out <folder>] [--dist <built site>] [--page <names>]
  --lang  the languages to photograph (default en)
  --out   where the PNGs go (default screenshots/)
  --dist  photograph this existing build instead of building the site into a temporary folder
  --page  only these pages, by their names in the files: home,about,legal-notice,404,… (default every page)`;

/** What the command line chose. */
interface Options {
  langs: Lang[];
  out: string;
  dist?: string;
  pages?: string[];
}

/** Reads the command line, or says what is wrong with it; the page names are checked once the pages are known. */
function options(argv: string[]): Options | { error: string } {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { lang: { type: 'string', default: 'en' }, out: { type: 'string', default: 'screenshots' }, dist: { type: 'string' }, page: { type: 'string' } },
    }));
  } catch (error) {
    return { error: (error as Error).message };
  }
  const langs = parseLangList(values.lang);
  if (!langs.ok) return { error: `unknown language ${langs.unknown.join(', ')}: use ${LANGUAGES.join(', ')} or all` };
  const { dist } = values;
  const unbuilt = dist === undefined ? [] : langs.langs.filter((lang) => !existsSync(join(dist, fileForPath(pathFor('home', lang)))));
  if (unbuilt.length > 0) return { error: `${dist} holds no ${unbuilt.join(', ')} pages: run npm run build, or leave out --dist` };
  const pages = values.page?.split(',').map((name) => name.trim()).filter(Boolean);
  if (pages?.length === 0) return { error: '--page names no page' };
  return {
    langs: langs.langs,
    out: resolve(values.out),
    ...(dist === undefined ? {} : { dist: resolve(dist) }),
    ...(pages === undefined ? {} : { pages }),
  };
}

/** Opens each page in a tab `width` px wide, waits until its fonts and images are in, saves it whole as `out/<shotFile>` and returns the files' names. */
async function shoot(browser: Browser, baseUrl: string, shots: readonly PageShot[], width: number, out: string): Promise<string[]> {
  const phone = width < 768;
  const context = await browser.newContext({ viewport: { width, height: 800 }, deviceScaleFactor: 1, isMobile: phone, hasTouch: phone, reducedMotion: 'reduce' });
  const page = await context.newPage();
  const files: string[] = [];
  try {
    for (const shot of shots) {
      const response = await page.goto(baseUrl + shot.url, { waitUntil: 'load' });
      if (!response || (response.status() >= 400 && shot.name !== '404')) throw new Error(`${shot.url} answered ${response?.status() ?? 'nothing'}: is the page in the build?`);
      await page.evaluate(async () => {
        // A full-page shot captures below the fold without scrolling: lazy images would stay empty.
        for (const image of Array.from(document.images)) image.loading = 'eager';
        await Promise.all(Array.from(document.images).map((image) => image.decode().catch(() => undefined)));
        await document.fonts.ready;
      });
      const file = shotFile(shot, width);
      await page.screenshot({ path: join(out, file), fullPage: true, animations: 'disabled' });
      files.push(file);
    }
  } finally {
    await context.close();
  }
  return files;
}

/** Serves the built site in `root` and saves `shots` at every width into `out`; returns the files' names, sorted. */
async function photograph(root: string, shots: readonly PageShot[], out: string): Promise<string[]> {
  mkdirSync(out, { recursive: true });
  const server = createStaticServer({ root });
  try {
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { chromium } = await import('@playwright/test');
    const browser = await chromium.launch({
      // Debian's Chromium where it is installed, as the browser tests use; elsewhere Playwright's own.
      executablePath: process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined),
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    try {
      // One tab per width, side by side.
      const files = await Promise.all(SHOT_WIDTHS.map((width) => shoot(browser, baseUrl, shots, width, out)));
      return files.flat().sort();
    } finally {
      await browser.close();
    }
  } finally {
    server.close();
  }
}

// Playwright and the build are imported only when needed (each takes a second or two to load):
// a mistyped option is answered at once, and --dist skips the build's modules.
async function main(argv: string[]): Promise<number> {
  const chosen = options(argv);
  if ('error' in chosen) {
    console.error(`${chosen.error}\n${USAGE}`);
    return 2;
  }
  const failed = (problems: readonly Problem[]) => {
    console.error(`the site does not build (npm run check says more):\n${problems.map((p) => `  ${formatProblem(p)}`).join('\n')}`);
    return 1;
  };
  const content = loadContentPages(DEFAULT_PATHS.contentDir);
  if (content.problems.length > 0) return failed(content.problems);
  const every = pageShots(siteRoutes(content.pages), chosen.langs);
  const known = [...new Set(every.map((shot) => shot.name))];
  const unknown = chosen.pages?.filter((name) => !known.includes(name)) ?? [];
  if (unknown.length > 0) {
    console.error(`no page named ${unknown.join(', ')}: the pages are ${known.join(', ')}\n${USAGE}`);
    return 2;
  }
  const shots = every.filter((shot) => chosen.pages?.includes(shot.name) ?? true);
  const work = mkdtempSync(join(tmpdir(), 'screenshots-'));
  try {
    const root = chosen.dist ?? join(work, 'dist');
    if (chosen.dist === undefined) {
      console.log(`building the site (${chosen.langs.join(', ')}) …`);
      const { buildSite } = await import('../../cli/pipeline/build-site.ts');
      const build = await buildSite({ ...DEFAULT_PATHS, outDir: root, langs: chosen.langs });
      if (build.errors.length > 0) return failed(build.errors);
    }
    console.log(`photographing ${shots.length} pages at ${SHOT_WIDTHS.join(' and ')} px …`);
    const files = await photograph(root, shots, chosen.out);
    console.log(`\n${files.length} screenshots in ${chosen.out}:\n${files.map((file) => `  ${file}`).join('\n')}`);
    return 0;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

process.exitCode = await main(process.argv.slice(2));
