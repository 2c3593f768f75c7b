import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { caseRedirectScript } from '../host/case-redirect.ts';
import { faviconSvg } from '../assets/favicon.ts';
import { hostConfigs } from '../host/host-configs.ts';
import { inlineCriticalCss, parseCss, plainCustomProperties } from './critical-css.ts';
import { createTranslator } from '../site/i18n.ts';
import { islandBundle, stylesheet as compiledStylesheet } from '../assets/cached-assets.ts';
import { loaderScript } from '../assets/island-loader.ts';
import type { IslandBundle } from '../assets/islands-build.ts';
import { DEFAULT_LANG, LANGUAGES, type Lang } from '../site/languages.ts';
import { loadAllMessages } from '../site/locales.ts';
import { isMarkdownPage, loadMarkdownPage } from '../site/markdown.ts';
import { precompress } from '../assets/precompress.ts';
import { rasterAssets } from '../assets/raster-assets.ts';
import { renderPage } from './render-page.tsx';
import { allRoutes, fileForPath, notFoundPath, type PageId } from '../site/routes.ts';
import { ContentError, loadSiteConfig, placeholderValues } from '../site/site-config.ts';
import { robotsTxt, sitemapXml } from './sitemap.ts';
import { validateOutput, type OutputDocument } from '../verify/verify-output.ts';
import { webManifest } from '../assets/web-manifest.ts';
import { ICONS, MANIFEST_PATH } from '../site/asset-paths.ts';

export interface BuildOptions {
  /** Folder with `site.json`, `locales/` and `pages/`. */
  contentDir: string;
  /** The Tailwind entry stylesheet. */
  cssEntry: string;
  outDir: string;
  langs?: readonly Lang[];
  /** Overrides `siteUrl` of `site.json` for canonical URLs and the sitemap. */
  siteUrl?: string;
  /** The clock, for the copyright year. */
  now?: Date;
  /** Reuse the island bundle and CSS built from identical sources (default true). */
  cache?: boolean;
}

/** One file the build wrote. */
export interface BuiltPage {
  path: string;
  file: string;
  lang: Lang;
  page: PageId | 'notFound';
  bytes: number;
}

/** What a build did: the pages written, and problems found (errors make the build fail). */
export interface BuildResult {
  pages: BuiltPage[];
  assets: { css: string; cssBytes: number; islands: IslandBundle['files'] };
  errors: string[];
  warnings: string[];
  durationMs: number;
}

/** The file that marks a folder as sitegen output, so it may be emptied before a build. */
const OUTPUT_MARKER = '.sitegen-output';

function prepareOutDir(outDir: string): string | null {
  if (existsSync(outDir) && readdirSync(outDir).length > 0) {
    if (!existsSync(join(outDir, OUTPUT_MARKER))) {
      return `${outDir}: not empty and not made by sitegen; choose an empty folder or delete it first`;
    }
    rmSync(outDir, { recursive: true, force: true });
  }
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, OUTPUT_MARKER), 'This folder is written by `sitegen build` and emptied on every build.\n');
  return null;
}

/** Every file under `dir`, as paths relative to it with forward slashes. */
function listFiles(dir: string): Set<string> {
  return new Set((readdirSync(dir, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1).split(sep).join('/')));
}

function writeOut(outDir: string, file: string, content: string): number {
  const target = join(outDir, file);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, content);
  return Buffer.byteLength(content);
}

/**
 * Builds the site: every page of the routes table in every requested language (critical CSS
 * inlined), the 404 pages, CSS, island scripts, sharing images and icons, manifest, sitemap, the
 * host configurations (`_deploy/nginx.conf`, `_headers`, `_redirects`) and precompressed copies;
 * then checks its own output (`validateOutput`), whose problems are the result's `errors`.
 */
export async function buildSite(options: BuildOptions): Promise<BuildResult> {
  const started = performance.now();
  const langs = options.langs ?? LANGUAGES;
  const result: BuildResult = { pages: [], assets: { css: '', cssBytes: 0, islands: [] }, errors: [], warnings: [], durationMs: 0 };
  const finish = () => ({ ...result, durationMs: performance.now() - started });

  let site;
  let messages;
  try {
    site = loadSiteConfig(options.contentDir);
    if (options.siteUrl) site = Object.freeze({ ...site, siteUrl: options.siteUrl.replace(/\/+$/, '') });
    messages = loadAllMessages(options.contentDir, langs);
  } catch (error) {
    if (error instanceof ContentError) return { ...finish(), errors: error.message.split('\n') };
    throw error;
  }
  const outError = prepareOutDir(options.outDir);
  if (outError) return { ...finish(), errors: [outError] };

  const values = placeholderValues(site);
  const translators = new Map(
    langs.map((lang) => [
      lang,
      createTranslator(lang, messages, values, (key) => {
        const problem = `translation key "${key}" is used by a template but missing from content/locales/en.json`;
        if (!result.errors.includes(problem)) result.errors.push(problem);
      }),
    ]),
  );
  const host = new URL(site.siteUrl).host;
  const socialTexts = Object.fromEntries(
    langs.map((lang) => {
      const t = translators.get(lang)!;
      return [lang, { brand: site.brand, title: t('hero.title'), tagline: t('hero.eyebrow'), host }];
    }),
  );

  // The island bundle (native, multi-threaded), the CSS compile and the images run side by side;
  // each comes from the build cache when its sources are unchanged.
  const useCache = options.cache ?? true;
  const [islands, css, socialImages] = await Promise.all([
    islandBundle(options.outDir, useCache),
    compiledStylesheet(options.cssEntry, useCache),
    rasterAssets(options.outDir, socialTexts, useCache),
  ]);
  const cssHash = createHash('sha256').update(css).digest('hex').slice(0, 10);
  const stylesheet = `/assets/styles.${cssHash}.css`;
  result.assets = { css: stylesheet, cssBytes: writeOut(options.outDir, stylesheet.slice(1), css), islands: islands.files };
  const cssRules = plainCustomProperties(parseCss(css));
  const loader = loaderScript();
  writeOut(options.outDir, ICONS.svg.slice(1), faviconSvg());
  const english = translators.get(DEFAULT_LANG) ?? translators.get(langs[0]!)!;
  writeOut(options.outDir, MANIFEST_PATH.slice(1), webManifest({ name: site.brand, description: english('meta.home.description'), lang: langs.includes(DEFAULT_LANG) ? DEFAULT_LANG : langs[0]! }));

  const year = (options.now ?? new Date()).getUTCFullYear();
  const routes = allRoutes(langs);
  const documents: OutputDocument[] = [];
  const caseRedirect = caseRedirectScript(routes.map((r) => r.path));
  for (const lang of langs) {
    const t = translators.get(lang)!;
    const context = { lang, t, site, year, islands: islands.assets };
    const shared = { stylesheet, loader, socialImage: socialImages[lang]! };
    for (const route of routes.filter((r) => r.lang === lang)) {
      let markdown;
      try {
        markdown = isMarkdownPage(route.page) ? loadMarkdownPage(options.contentDir, lang, route.page, values) : undefined;
      } catch (error) {
        if (!(error instanceof ContentError)) throw error;
        result.errors.push(...error.message.split('\n'));
        continue;
      }
      const html = inlineCriticalCss(
        renderPage({ ...shared, context: { ...context, page: route.page }, canonicalPath: route.canonical, markdown }),
        stylesheet,
        cssRules,
      );
      const file = fileForPath(route.path);
      result.pages.push({ path: route.path, file, lang, page: route.page, bytes: writeOut(options.outDir, file, html) });
      documents.push({ path: route.path, file, html, ...(route.path !== route.canonical ? { aliasOf: route.canonical } : {}) });
    }
    const path = notFoundPath(lang);
    const html = inlineCriticalCss(renderPage({ ...shared, context: { ...context, page: 'notFound' }, canonicalPath: null, headScript: caseRedirect }), stylesheet, cssRules);
    const file = fileForPath(path);
    result.pages.push({ path, file, lang, page: 'notFound', bytes: writeOut(options.outDir, file, html) });
    documents.push({ path, file, html });
  }
  const sitemap = sitemapXml(routes, site.siteUrl);
  writeOut(options.outDir, 'sitemap.xml', sitemap);
  writeOut(options.outDir, 'robots.txt', robotsTxt(site.siteUrl));
  const written = listFiles(options.outDir);
  const builtPaths = new Set(routes.map((r) => r.path));
  const unbuiltPages = new Set(allRoutes().map((r) => r.path).filter((p) => !builtPaths.has(p)));
  result.errors.push(...validateOutput({ siteUrl: site.siteUrl, documents, sitemap, exists: (file) => written.has(file), unbuiltPages }));

  const configs = hostConfigs({ siteUrl: site.siteUrl, ingestUrl: site.ingestUrl, routes, langs, html: documents.map((d) => d.html), manifest: true });
  for (const [file, content] of Object.entries(configs)) writeOut(options.outDir, file, content);
  precompress(options.outDir, written);
  return finish();
}
