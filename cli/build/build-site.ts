import { precompress } from '../assets/precompress.ts';
import { hostConfigs } from '../host/host-configs.ts';
import type { Problem } from '../site/errors.ts';
import { LANGUAGES, type Lang } from '../site/languages.ts';
import type { RoutePageId } from '../site/routes.ts';
import { validateOutput } from '../verify/verify-output.ts';
import { buildAssets } from './build-assets.ts';
import { type LoadedContent, loadContent, translationGaps, unknownKeyProblems } from './load-content.ts';
import { createStaging, discardStaging, foreignOutDir, listFiles, publishOutput, writeOutFile } from './output-dir.ts';
import { renderPages } from './render-pages.ts';
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

/** What a build did: the pages written, and problems found (errors make the build fail). */
export interface BuildResult {
  pages: BuiltPage[];
  assets: { css: string; cssBytes: number; islands: { file: string; bytes: number }[] };
  errors: Problem[];
  warnings: Problem[];
  durationMs: number;
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
  const result = (fields: Partial<BuildResult>): BuildResult => ({
    pages: [],
    assets: { css: '', cssBytes: 0, islands: [] },
    errors: [],
    warnings: [],
    ...fields,
    durationMs: performance.now() - started,
  });
  const langs = options.langs ?? LANGUAGES;
  const { outDir, contentDir } = options;

  const loaded = loadContent(contentDir, langs, options.siteUrl);
  if (!loaded.ok) return result({ errors: [...loaded.problems] });
  const gaps = translationGaps(contentDir, langs, options.allowMissing ?? false);
  const foreign = foreignOutDir(outDir);
  if (gaps.errors.length > 0 || foreign) return result({ errors: [...(foreign ? [foreign] : []), ...gaps.errors], warnings: gaps.warnings });
  const { content } = loaded;
  const staging = createStaging(outDir);
  try {
    const built = await buildInto(staging, options, content, langs);
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

/** The stages after loading, writing into `dir`; returns what was built and the problems found. */
async function buildInto(dir: string, options: BuildOptions, content: LoadedContent, langs: readonly Lang[]): Promise<Pick<BuildResult, 'pages' | 'assets' | 'errors'>> {
  const assets = await buildAssets(dir, options.cssEntry, content, langs, options.cache ?? true);
  const routes = content.routes.allRoutes(langs);
  const year = (options.now ?? new Date()).getUTCFullYear();
  const rendered = renderPages(content, assets, { contentDir: options.contentDir, langs, routes, year });
  const pages = rendered.documents.map(({ path, file, lang, page, html }) => ({ path, file, lang, page, bytes: writeOutFile(dir, file, html) }));
  const sitemap = sitemapXml(routes, content.routes, content.site.siteUrl);
  writeOutFile(dir, 'sitemap.xml', sitemap);
  writeOutFile(dir, 'robots.txt', robotsTxt(content.site.siteUrl));

  const written = listFiles(dir);
  // Pages not built (other languages, or pages whose content failed and is reported at its cause)
  // count as present, so each problem is reported once, not again at every link to the page.
  const builtPaths = new Set(rendered.documents.map((d) => d.path));
  const unbuiltPages = new Set(content.routes.allRoutes().map((r) => r.path).filter((p) => !builtPaths.has(p)));
  const verified = validateOutput({ siteUrl: content.site.siteUrl, documents: rendered.documents, sitemap, exists: (file) => written.has(file), unbuiltPages });

  const configs = hostConfigs({ siteUrl: content.site.siteUrl, ingestUrl: content.site.ingestUrl, routes, langs, html: rendered.documents.map((d) => d.html), manifest: true });
  for (const [file, text] of Object.entries(configs)) writeOutFile(dir, file, text);
  precompress(dir, written);
  return {
    pages,
    assets: { css: assets.stylesheet, cssBytes: assets.cssBytes, islands: assets.islands.files },
    errors: [...rendered.problems, ...verified],
  };
}
