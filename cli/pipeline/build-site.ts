import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { precompress } from '../assets/precompress.ts';
import { writeDeployFiles } from '../host/deploy-files.ts';
import { hostConfigs } from '../host/host-configs.ts';
import { SECURITY_TXT_PATH } from '../site/asset-paths.ts';
import type { Problem } from '../site/errors.ts';
import { LANGUAGES, type Lang } from '../site/languages.ts';
import { fileForPath, type RoutePageId } from '../site/routes.ts';
import { pngSize } from '../assets/cards/png-size.ts';
import { filledPages, socialCards, timedAsync } from './discovery/social-cards.ts';
import { skeletonHash } from '../verify/html-scan.ts';
import { validateOutput } from '../verify/verify-output.ts';
import { buildAssets } from './build-assets.ts';
import { type BuildOptions, type BuildResult, type BuiltPage, timed } from './build-result.ts';
import { type LoadedContent, loadContent, translationGaps, unknownKeyProblems } from './load-content.ts';
import { forgetBuildRecord, type Standing, standingBuild, writeBuildRecord } from './cache/build-record.ts';
import { frontMatterCache } from './cache/front-matter-cache.ts';
import { linkedSpare, OutputPlan, PlannedAssets } from './cache/output-plan.ts';
import {
  cachedStaging,
  forgetPreviousBuild,
  keepRecord,
  type FolderRecord,
  type Manifest,
  type PageRecord,
  type PreviousBuild,
  noPreviousBuild,
  readPreviousBuild,
  recordFolder,
  spareDirOf,
  swapWithSpare,
  writeManifest,
} from './cache/output-store.ts';
import { pageCache } from './cache/page-cache.ts';
import { digest, renderCodeHash, sharedInputs } from './cache/page-inputs.ts';
import { createStaging, discardStaging, droppedLanguages, foreignOutDir, listFiles, OUTPUT_MARKER, OUTPUT_MARKER_TEXT, publishOutput } from './output-dir.ts';
import { startPageWriter } from './page-writer.ts';
import { planChecks, planPages, skeletonsCompared, unchangedPlan } from './plan/build-plan.ts';
import type { PageRoute, RenderedDocument } from './page-document.ts';
import { pageRoutes, renderPages, type UnchangedDocument } from './render-pages.ts';
import { discoveryMemo } from './discovery/discovery-memo.ts';
import { llmsTxt } from './discovery/llms-txt.ts';
import { robotsTxt, sitemapXml } from './discovery/sitemap.ts';
import { securityTxt } from './security-txt.ts';

export type { BuildOptions, BuildResult } from './build-result.ts';

/**
 * Builds the site, stage by stage: load the content and find translation gaps → assets (CSS,
 * islands, images, icons, manifest) → render every page of the routes table in every requested
 * language and a 404 page per language → write them, the sitemap, robots.txt and
 * `/.well-known/security.txt` (which fails the build early when site.json names no contact) → verify the
 * output → host configurations (`_headers`, `_redirects`; `nginx.conf` beside the output, in
 * `dist-deploy/`: never published) → precompress.
 * Everything is written into another folder that replaces `outDir` only when no stage found an
 * error: a failed build leaves the previous site in place.
 *
 * With the cache (the default), a page whose inputs did not change since the previous build is
 * neither rendered nor written, the output checks run again only when what they read changed,
 * and a build that changes nothing publishes nothing (see `cache/output-store.ts`). A build whose
 * inputs are all as the last one's, finding its output untouched, stops before loading anything
 * (`cache/build-record.ts`); `standing` is that check when the caller ran it already (`sitegen
 * build` runs it before loading this module).
 */
export async function buildSite(options: BuildOptions, standing?: Standing): Promise<BuildResult> {
  const useCache = options.cache ?? true;
  if (!useCache) forgetBuildRecord(options.outDir);
  const known = useCache ? (standing ?? standingBuild(options)) : null;
  if (known?.result) return { ...known.result, plan: unchangedPlan(known.result.pages) };
  // The check's time counts as part of the build and of its load stage.
  const started = performance.now() - (known?.ms ?? 0);
  const stageMs: BuildResult['stageMs'] = known ? { load: known.ms } : {};
  const result = (fields: Partial<BuildResult>): BuildResult => ({
    pages: [],
    assets: { css: '', cssBytes: 0, islands: [] },
    errors: [],
    warnings: [],
    filesWritten: 0,
    ...fields,
    durationMs: performance.now() - started,
    stageMs,
  });
  const langs = options.langs ?? LANGUAGES;
  const { outDir, contentDir } = options;

  const frontMatter = known ? frontMatterCache(outDir, known.fileHash) : null;
  const loaded = timed(stageMs, 'load', () => loadContent(contentDir, langs, options.siteUrl, frontMatter?.read));
  if (!loaded.ok) return result({ errors: [...loaded.problems] });
  const gaps = timed(stageMs, 'load', () => translationGaps(contentDir, langs, options.allowMissing ?? false));
  const foreign = foreignOutDir(outDir) ?? droppedLanguages(outDir, langs);
  if (gaps.errors.length > 0 || foreign) return result({ errors: [...(foreign ? [foreign] : []), ...gaps.errors], warnings: gaps.warnings });
  const { content } = loaded;
  const security = securityTxt(content.site, options.now ?? new Date(), join(contentDir, 'site.json'));
  if (!security.ok) return result({ errors: [security.problem], warnings: gaps.warnings });
  if (!useCache) forgetPreviousBuild(outDir);
  const previous = useCache ? timed(stageMs, 'load', () => readPreviousBuild(outDir)) : noPreviousBuild(outDir);
  // With the cache, the build writes into the spare (the output before last: cache/output-store.ts);
  // a failed build leaves it there, its changed files no longer matching the manifest's record.
  const staging = useCache ? cachedStaging(outDir) : createStaging(outDir);
  const plan = new OutputPlan(staging, previous.spareFiles);
  try {
    const built = await buildInto(plan, options, content, langs, stageMs, previous, known, security.text);
    const errors = [...unknownKeyProblems(content, contentDir), ...built.errors];
    if (errors.length > 0) {
      if (!useCache) discardStaging(staging);
      return result({ errors, warnings: gaps.warnings });
    }
    const published = timed(stageMs, 'flush', () => (useCache ? publishCached(plan, outDir, previous, built.cacheRecords) : { written: publishFresh(plan, outDir), out: null }));
    // After the site: a server block that names a new page finds its file already there.
    const deployWritten = timed(stageMs, 'flush', () => writeDeployFiles(outDir, built.cacheRecords.host.deploy));
    const done = result({ pages: built.pages, assets: built.assets, errors, warnings: gaps.warnings, filesWritten: published.written + deployWritten, cardsRendered: built.cardsRendered, plan: built.plan });
    if (known && published.out) writeBuildRecord(outDir, known, done, published.out);
    frontMatter?.save();
    return done;
  } catch (error) {
    if (!useCache) discardStaging(staging);
    throw error;
  }
}

/** Publishes a build without the cache: the new folder replaces the output, which is deleted. */
function publishFresh(plan: OutputPlan, outDir: string): number {
  const written = plan.finish();
  publishOutput(plan.dir, outDir);
  return written;
}

/**
 * Publishes a build with the cache: nothing when the output already holds exactly its files;
 * otherwise the spare, completed, is swapped in and the old output kept as the next spare. Then
 * records both folders and the pages in the manifest. Returns how many files were written, and
 * the output's record.
 */
function publishCached(plan: OutputPlan, outDir: string, previous: PreviousBuild, records: Omit<Manifest, 'version' | 'out' | 'spare'>): { written: number; out: FolderRecord | null } {
  const spareDir = spareDirOf(outDir);
  if (previous.outFiles.holds(plan.files)) {
    // Nothing to publish. The spare may have been written into (a page rendered again because a
    // string it reads changed, with the same HTML): its record then says what it holds now.
    const spare = keepRecord(spareDir, previous.spareFiles, new Map([...plan.written].map((file) => [file, plan.files.get(file)!])));
    const out = keepRecord(outDir, previous.outFiles);
    writeManifest(outDir, { version: 4, out, spare, ...records });
    return { written: 0, out };
  }
  const written = plan.finish();
  swapWithSpare(outDir);
  // A file this build did not write is as the spare held it; one it linked, as the output held it.
  const known = (file: string) => {
    if (!plan.written.has(file)) return previous.spareFiles.trusted(file);
    return plan.linked.get(file) === join(outDir, file) ? previous.outFiles.trusted(file) : undefined;
  };
  const out = recordFolder(outDir, plan.files, known);
  // The output replaced is the next spare. The first build has none: a spare of links to its
  // output, so that the next build (one string changed) writes only what changed. (An output
  // replaced without a record stays the spare: deleting it and linking anew cost a whole build
  // of the scaling site 0.5 s, as much as the next build saves.)
  const spare = keepRecord(spareDir, previous.outFiles) ?? linkedSpare(outDir, out);
  writeManifest(outDir, { version: 4, out, spare, ...records });
  return { written, out };
}

/** A page of the output: rendered by this build, or kept as the previous one wrote it. */
type OutputPage = RenderedDocument | UnchangedDocument;

/**
 * The stages after loading, writing into `plan.dir`; returns what was built, the problems found
 * and what the cache records. Each language's pages are handed to other threads to write and
 * compress as soon as they are rendered, while this one renders the next language and verifies
 * the whole.
 */
async function buildInto(
  plan: OutputPlan,
  options: BuildOptions,
  content: LoadedContent,
  langs: readonly Lang[],
  stageMs: BuildResult['stageMs'],
  previous: PreviousBuild,
  /** With the cache: what the build record's check found (its file hashes serve the page cache). */
  known: Standing | null,
  /** The text of `/.well-known/security.txt`. */
  securityText: string,
): Promise<Pick<BuildResult, 'pages' | 'assets' | 'errors' | 'cardsRendered' | 'plan'> & { cacheRecords: Omit<Manifest, 'version' | 'out' | 'spare'> }> {
  const { outDir, contentDir } = options;
  const useCache = known !== null;
  const assetsStarted = performance.now();
  // With the cache, the cached assets are linked into the output and the others written when they changed; without, all are written into the new folder.
  const planned = useCache ? new PlannedAssets(plan) : null;
  const assets = await buildAssets(plan.dir, options.cssEntry, content, langs, useCache, planned ?? undefined);
  const assetFiles = planned ? planned.files : [...listFiles(plan.dir)];
  if (!planned) {
    precompress(plan.dir, assetFiles);
    for (const file of listFiles(plan.dir)) plan.present(file);
  }
  if (useCache) plan.text(OUTPUT_MARKER, OUTPUT_MARKER_TEXT);
  stageMs.assets = performance.now() - assetsStarted;
  const routes = content.routes.allRoutes(langs);
  // The pages' titles and descriptions as their heads show them, for the cards and llms.txt.
  const fill = filledPages(content.values);
  const discovery = discoveryMemo(useCache ? outDir : null, content, routes, langs);
  const { cards, rendered: cardsRendered } = await timedAsync(stageMs, 'assets', () => socialCards(content, routes, fill, discovery));
  for (const card of cards.values()) plan.copy(card.file, card.hash, card.source);
  const year = (options.now ?? new Date()).getUTCFullYear();
  const shared = useCache ? sharedInputs(renderCodeHash(), content, assets, routes, langs, year) : {};
  const cache = pageCache(previous, shared, content, contentDir, known?.fileHash, options.now, (path) => cards.get(path)?.url ?? '');
  const pagePlan = timed(stageMs, 'render', () =>
    planPages({ cache: useCache, previous: cache.previous, shared, pages: pageRoutes(routes, langs), inputsOf: (page, keys) => cache.inputsOf(page.route, keys), stringValue: cache.stringValue, files: cache.files }),
  );
  const reuse = (_route: PageRoute, file: string) => pagePlan.get(file)?.decision === 'keep';
  const position = new Map(routes.map((route, i) => [route.path, i]));
  const writer = startPageWriter(plan.dir);
  planned?.write(writer);
  try {
    const outputPages: OutputPage[] = [];
    const skeletons = new Map<string, string>();
    const renderedRecords = new Map<string, PageRecord>();
    const keptRecords = new Map<string, PageRecord>();
    const problems: Problem[] = [];
    const pages: BuiltPage[] = [];
    for (const lang of langs) {
      const rendered = timed(stageMs, 'render', () => renderPages(content, assets, { contentDir, langs: [lang], routes, year, cards, reuse }));
      timed(stageMs, 'write', () => {
        const sizes = plan.documents(writer, rendered.documents.map((d) => ({ file: d.file, text: d.html })));
        rendered.documents.forEach((document, i) => {
          const { hash, bytes } = sizes[i]!;
          renderedRecords.set(document.file, cache.rendered({ ...document, canonical: document.aliasOf ?? document.path }, document, { hash, bytes, skeleton: '' }));
        });
        for (const document of rendered.unchanged) {
          const record = cache.kept(document.file, document.lang);
          keptRecords.set(document.file, record);
          plan.keptPage(outDir, document.file, record.html, record.bytes);
          skeletons.set(document.file, record.skeleton);
        }
      });
      const inOrder = [...rendered.documents, ...rendered.unchanged].sort((a, b) => (position.get(a.path) ?? Infinity) - (position.get(b.path) ?? Infinity));
      for (const page of inOrder) {
        const bytes = (page.html === undefined ? cache.recorded(page.file) : renderedRecords.get(page.file)!).bytes;
        pages.push({ path: page.path, file: page.file, lang: page.lang, page: page.page, bytes, rendered: page.html !== undefined });
      }
      outputPages.push(...inOrder);
      problems.push(...rendered.problems);
    }
    const changed = cache.pages;
    const sitemap = sitemapXml(routes, content.routes, content.site.siteUrl, (route) => changed[fileForPath(route.path)]?.changed);
    const robots = robotsTxt(content.site.siteUrl);
    // The sitemap first: its compressed copies are made in the background while llms.txt is made.
    const siteFiles = [{ file: 'sitemap.xml', text: sitemap }, { file: 'robots.txt', text: robots }, { file: SECURITY_TXT_PATH.slice(1), text: securityText }];
    timed(stageMs, 'write', () => plan.documents(writer, siteFiles));
    // A page whose content failed is reported at its cause; the index of the pages waits for a build without problems.
    const llms = problems.length === 0 ? llmsTxt({ ...content, fill, langs }, discovery) : new Map<string, string>();
    if (problems.length === 0) discovery.save();
    siteFiles.push(...[...llms].map(([file, text]) => ({ file, text })));
    timed(stageMs, 'write', () => plan.documents(writer, siteFiles.slice(3)));

    const written = new Set([...assetFiles, ...[...cards.values()].map((c) => c.file), ...outputPages.map((d) => d.file), ...siteFiles.map((f) => f.file)]);
    // The checks and the host configurations read the pages' tags, scripts and styles, the
    // sitemap and the list of files: when none of these changed, they come out as last time.
    // Reading a page's skeleton costs about a third of rendering it, so it is read here only when
    // few pages were rendered; otherwise the checks run, and they read every page's skeleton as
    // they scan it: recorded, it lets the next build (one string changed) skip the checks.
    // The checks do not read the sitemap's dates: a page whose text changed moves its <lastmod>, which must not run them again.
    const sitemapChecked = sitemap.replace(/ {4}<lastmod>[^<]*<\/lastmod>\n/g, '');
    const checksKeyOf = (skeletonOf: (file: string) => string | undefined) =>
      digest(...Object.values(shared), sitemapChecked, robots, [...written].sort().join('\n'), ...outputPages.map((d) => `${d.file} ${d.path} ${d.aliasOf ?? ''} ${skeletonOf(d.file) ?? ''}`));
    let checksKey = useCache && renderedRecords.size <= skeletonsCompared(outputPages.length) ? timed(stageMs, 'write', () => {
      for (const document of outputPages) if (document.html !== undefined) skeletons.set(document.file, (renderedRecords.get(document.file)!.skeleton = skeletonHash(document.html)));
      return checksKeyOf((file) => skeletons.get(file));
    }) : '';
    let verified: Problem[] = [];
    let host = previous.manifest?.host ?? { published: {}, deploy: {} };
    const checks = planChecks({ cache: useCache, rendered: renderedRecords.size, pages: outputPages.length, key: checksKey, previousKey: previous.manifest?.checksKey });
    if (checks.run) {
      const documents = outputPages.map((d) => ({ ...d, html: d.html ?? readFileSync(join(outDir, d.file), 'utf8') }));
      // Pages not built (other languages, or pages whose content failed and is reported at its cause)
      // count as present, so each problem is reported once, not again at every link to the page.
      const builtPaths = new Set(documents.map((d) => d.path));
      const unbuiltPages = new Set(content.routes.allRoutes().map((r) => r.path).filter((p) => !builtPaths.has(p)));
      const scanned = new Map<string, string>();
      // The cards and the cached images are linked into the output at the end: their size is read from the assets' cache.
      const cardSources = new Map([...cards.values()].map((card) => [card.file, card.source]));
      const imageSize = (file: string) => pngSize(cardSources.get(file) ?? planned?.sources.get(file) ?? join(plan.dir, file));
      verified = timed(stageMs, 'verify', () => validateOutput({ siteUrl: content.site.siteUrl, documents, sitemap, exists: (file) => written.has(file), unbuiltPages, imageSize }, scanned));
      host = timed(stageMs, 'host', () => hostConfigs({ siteUrl: content.site.siteUrl, ingestUrl: content.site.ingestUrl, routes, langs, html: documents.map((d) => d.html), manifest: true }));
      if (useCache) {
        for (const [file, record] of [...renderedRecords, ...keptRecords]) record.skeleton = scanned.get(file) ?? '';
        checksKey = checksKeyOf((file) => scanned.get(file));
      }
    }
    for (const [file, text] of Object.entries(host.published)) plan.text(file, text);
    const flushStarted = performance.now();
    await writer.finish();
    stageMs.flush = performance.now() - flushStarted;
    return {
      pages,
      assets: { css: assets.stylesheet, cssBytes: assets.cssBytes, islands: assets.islands.files },
      errors: [...problems, ...verified],
      cardsRendered,
      plan: { pages: [...pagePlan.values()], checks },
      cacheRecords: { ...cache.records(), checksKey, host },
    };
  } catch (error) {
    await writer.stop();
    throw error;
  }
}
