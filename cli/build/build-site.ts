import { precompress } from '../assets/precompress.ts';
import { hostConfigs } from '../host/host-configs.ts';
import type { Problem } from '../site/errors.ts';
import { LANGUAGES, type Lang } from '../site/languages.ts';
import { allRoutes, type PageId } from '../site/routes.ts';
import { validateOutput } from '../verify/verify-output.ts';
import { buildAssets } from './build-assets.ts';
import { loadContent, unknownKeyProblems } from './load-content.ts';
import { listFiles, prepareOutDir, writeOutFile } from './output-dir.ts';
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
}

/** One file the build wrote. */
interface BuiltPage {
  path: string;
  file: string;
  lang: Lang;
  page: PageId | 'notFound';
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
 * Builds the site, stage by stage: load the content → prepare the output folder → assets (CSS,
 * islands, images, icons, manifest) → render every page of the routes table in every requested
 * language and a 404 page per language → write them, the sitemap and robots.txt → verify the
 * output → host configurations (`_deploy/nginx.conf`, `_headers`, `_redirects`) → precompress.
 * Problems of every stage are the result's `errors`; a build with errors has failed.
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
  const { content } = loaded;
  const outDirProblem = prepareOutDir(outDir);
  if (outDirProblem) return result({ errors: [outDirProblem] });

  const assets = await buildAssets(outDir, options.cssEntry, content, langs, options.cache ?? true);
  const routes = allRoutes(langs);
  const year = (options.now ?? new Date()).getUTCFullYear();
  const rendered = renderPages(content, assets, { contentDir, langs, routes, year });
  const pages = rendered.documents.map(({ path, file, lang, page, html }) => ({ path, file, lang, page, bytes: writeOutFile(outDir, file, html) }));
  const sitemap = sitemapXml(routes, content.site.siteUrl);
  writeOutFile(outDir, 'sitemap.xml', sitemap);
  writeOutFile(outDir, 'robots.txt', robotsTxt(content.site.siteUrl));

  const written = listFiles(outDir);
  const builtPaths = new Set(routes.map((r) => r.path));
  const unbuiltPages = new Set(allRoutes().map((r) => r.path).filter((p) => !builtPaths.has(p)));
  const verified = validateOutput({ siteUrl: content.site.siteUrl, documents: rendered.documents, sitemap, exists: (file) => written.has(file), unbuiltPages });

  const configs = hostConfigs({ siteUrl: content.site.siteUrl, ingestUrl: content.site.ingestUrl, routes, langs, html: rendered.documents.map((d) => d.html), manifest: true });
  for (const [file, text] of Object.entries(configs)) writeOutFile(outDir, file, text);
  precompress(outDir, written);
  return result({
    pages,
    assets: { css: assets.stylesheet, cssBytes: assets.cssBytes, islands: assets.islands.files },
    errors: [...unknownKeyProblems(content, contentDir), ...rendered.problems, ...verified],
  });
}
