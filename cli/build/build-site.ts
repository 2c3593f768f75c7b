import { precompress } from '../assets/precompress.ts';
import { hostConfigs } from '../host/host-configs.ts';
import type { Problem } from '../site/errors.ts';
import { LANGUAGES, type Lang } from '../site/languages.ts';
import type { RoutePageId } from '../site/routes.ts';
import { validateOutput } from '../verify/verify-output.ts';
import { buildAssets } from './build-assets.ts';
import { type LoadedContent, loadContent, translationGaps, unknownKeyProblems } from './load-content.ts';
import { createStaging, discardStaging, droppedLanguages, foreignOutDir, listFiles, publishOutput, writeOutFile } from './output-dir.ts';
import { startPageWriter } from './page-writer.ts';
import { type RenderedDocument, renderPages } from './render-pages.ts';
import { robotsTxt, sitemapXml } from './sitemap.ts';

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
  /** Publish even when a language lacks keys (English shows in their place), with a warning per key. */
  allowMissing?: boolean;
}

/** One file the build wrote. */
interface BuiltPage {
  path: string;
  file: string;
  lang: Lang;
  page: RoutePageId | 'notFound';
  bytes: number;
}

/**
 * The build's stages, in the order they run; `sitegen build --timings` prints how long each took.
 * Pages are written and compressed in other threads during render and verify: `write` is this
 * thread's share (handing them over), `flush` the wait for the rest after `host`.
 */
export type BuildStage = 'load' | 'assets' | 'render' | 'write' | 'verify' | 'host' | 'flush';

/** What a build did: the pages written, and problems found (errors make the build fail). */
export interface BuildResult {
  pages: BuiltPage[];
  assets: { css: string; cssBytes: number; islands: { file: string; bytes: number }[] };
  errors: Problem[];
  warnings: Problem[];
  durationMs: number;
  /** Milliseconds spent in each stage that ran (a build that fails early has fewer). */
  stageMs: Partial<Record<BuildStage, number>>;
}

/** Runs `step`, adding its duration to `stageMs[stage]`. */
function timed<T>(stageMs: BuildResult['stageMs'], stage: BuildStage, step: () => T): T {
  const started = performance.now();
  try {
    return step();
  } finally {
    stageMs[stage] = (stageMs[stage] ?? 0) + performance.now() - started;
  }
}

/**
 * Builds the site, stage by stage: load the content and find translation gaps → assets (CSS,
 * islands, images, icons, manifest) → render every page of the routes table in every requested
 * language and a 404 page per language → write them, the sitemap and robots.txt → verify the
 * output → host configurations (`_deploy/nginx.conf`, `_headers`, `_redirects`) → precompress.
 * Everything is written into a staging folder that replaces `outDir` only when no stage found an
 * error: a failed build leaves the previous site in place.
 */
export async function buildSite(options: BuildOptions): Promise<BuildResult> {
  const started = performance.now();
  const stageMs: BuildResult['stageMs'] = {};
  const result = (fields: Partial<BuildResult>): BuildResult => ({
    pages: [],
    assets: { css: '', cssBytes: 0, islands: [] },
    errors: [],
    warnings: [],
    ...fields,
    durationMs: performance.now() - started,
    stageMs,
  });
  const langs = options.langs ?? LANGUAGES;
  const { outDir, contentDir } = options;

  const loaded = timed(stageMs, 'load', () => loadContent(contentDir, langs, options.siteUrl));
  if (!loaded.ok) return result({ errors: [...loaded.problems] });
  const gaps = timed(stageMs, 'load', () => translationGaps(contentDir, langs, options.allowMissing ?? false));
  const foreign = foreignOutDir(outDir) ?? droppedLanguages(outDir, langs);
  if (gaps.errors.length > 0 || foreign) return result({ errors: [...(foreign ? [foreign] : []), ...gaps.errors], warnings: gaps.warnings });
  const { content } = loaded;
  const staging = createStaging(outDir);
  try {
    const built = await buildInto(staging, options, content, langs, stageMs);
    const errors = [...unknownKeyProblems(content, contentDir), ...built.errors];
    if (errors.length > 0) {
      discardStaging(staging);
      return result({ errors, warnings: gaps.warnings });
    }
    publishOutput(staging, outDir);
    return result({ ...built, errors, warnings: gaps.warnings });
  } catch (error) {
    discardStaging(staging);
    throw error;
  }
}

/**
 * The stages after loading, writing into `dir`; returns what was built and the problems found.
 * Each language's pages are handed to other threads to write and compress as soon as they are
 * rendered, while this one renders the next language and verifies the whole.
 */
async function buildInto(
  dir: string,
  options: BuildOptions,
  content: LoadedContent,
  langs: readonly Lang[],
  stageMs: BuildResult['stageMs'],
): Promise<Pick<BuildResult, 'pages' | 'assets' | 'errors'>> {
  const assetsStarted = performance.now();
  const assets = await buildAssets(dir, options.cssEntry, content, langs, options.cache ?? true);
  stageMs.assets = performance.now() - assetsStarted;
  const assetFiles = listFiles(dir);
  const routes = content.routes.allRoutes(langs);
  const year = (options.now ?? new Date()).getUTCFullYear();
  const writer = startPageWriter(dir);
  try {
    const documents: RenderedDocument[] = [];
    const problems: Problem[] = [];
    const pages: BuiltPage[] = [];
    for (const lang of langs) {
      const rendered = timed(stageMs, 'render', () => renderPages(content, assets, { contentDir: options.contentDir, langs: [lang], routes, year }));
      timed(stageMs, 'write', () => {
        const sizes = writer.write(rendered.documents.map((d) => ({ file: d.file, text: d.html })));
        rendered.documents.forEach(({ path, file, lang, page }, i) => pages.push({ path, file, lang, page, bytes: sizes[i]! }));
      });
      documents.push(...rendered.documents);
      problems.push(...rendered.problems);
    }
    const sitemap = sitemapXml(routes, content.routes, content.site.siteUrl);
    const robots = robotsTxt(content.site.siteUrl);
    timed(stageMs, 'write', () => writer.write([{ file: 'sitemap.xml', text: sitemap }, { file: 'robots.txt', text: robots }]));

    const written = new Set([...assetFiles, ...documents.map((d) => d.file), 'sitemap.xml', 'robots.txt']);
    // Pages not built (other languages, or pages whose content failed and is reported at its cause)
    // count as present, so each problem is reported once, not again at every link to the page.
    const builtPaths = new Set(documents.map((d) => d.path));
    const unbuiltPages = new Set(content.routes.allRoutes().map((r) => r.path).filter((p) => !builtPaths.has(p)));
    const verified = timed(stageMs, 'verify', () => validateOutput({ siteUrl: content.site.siteUrl, documents, sitemap, exists: (file) => written.has(file), unbuiltPages }));

    timed(stageMs, 'host', () => {
      const configs = hostConfigs({ siteUrl: content.site.siteUrl, ingestUrl: content.site.ingestUrl, routes, langs, html: documents.map((d) => d.html), manifest: true });
      for (const [file, text] of Object.entries(configs)) writeOutFile(dir, file, text);
    });
    const flushStarted = performance.now();
    precompress(dir, assetFiles);
    await writer.finish();
    stageMs.flush = performance.now() - flushStarted;
    return {
      pages,
      assets: { css: assets.stylesheet, cssBytes: assets.cssBytes, islands: assets.islands.files },
      errors: [...problems, ...verified],
    };
  } catch (error) {
    await writer.stop();
    throw error;
  }
}
