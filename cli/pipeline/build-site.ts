import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeDeployFiles } from '../host/deploy-files.ts';
import { SECURITY_TXT_PATH } from '../site/asset-paths.ts';
import type { Problem } from '../site/errors.ts';
import { LANGUAGES, type Lang } from '../site/languages.ts';
import { fileForPath, type RoutePageId } from '../site/routes.ts';
import { pngSize } from '../assets/cards/png-size.ts';
import { pruneCards } from '../assets/cards/stale-cards.ts';
import { filledPages, socialCards } from './discovery/social-cards.ts';
import { skeletonHash } from '../verify/html-scan.ts';
import { buildAssets } from './build-assets.ts';
import { type BuildOptions, type BuildResult, type BuiltPage, timed, timedAsync } from './build-result.ts';
import { type LoadedContent, loadContent, translationGaps, unknownKeyProblems } from './load-content.ts';
import { forgetBuildRecord, type Standing, standingBuild, writeBuildRecord } from './cache/build-record.ts';
import { frontMatterCache } from './cache/front-matter-cache.ts';
import { forgetPreviousBuild, type PageRecord, type PreviousBuild, readPreviousBuild } from './cache/output-store.ts';
import { pageCache } from './cache/page-cache.ts';
import { digest, renderCodeHash, sharedInputs } from './cache/page-inputs.ts';
import { droppedLanguages, foreignOutDir } from './output-dir.ts';
import { planChecks, planPages, skeletonsCompared, unchangedPlan } from './plan/build-plan.ts';
import { type BuildRecords, FolderSink } from './sink/folder-sink.ts';
import { freshFolder } from './sink/fresh-folder.ts';
import { SinkAssets } from './sink/sink-assets.ts';
import { spareFolder } from './sink/spare-folder.ts';
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
 * Everything goes through an output sink (sink/output-sink.ts) into another folder that replaces
 * `outDir` only when no stage found an error: a failed build leaves the previous site in place.
 *
 * The previous build's records decide what is done again (plan/build-plan.ts): a page whose inputs
 * did not change is neither rendered nor written, the output checks run again only when what they
 * read changed, and a build that changes nothing publishes nothing. A build whose inputs are all
 * as the last one's, finding its output untouched, stops before loading anything
 * (`cache/build-record.ts`); `standing` is that check when the caller ran it already (`sitegen
 * build` runs it before loading this module, so such a build loads neither React nor the
 * templates). `--no-cache` (`cache: false`) is the same build from empty records into a fresh folder.
 */
export async function buildSite(options: BuildOptions, standing?: Standing): Promise<BuildResult> {
  const { outDir, contentDir } = options;
  const fresh = options.cache === false;
  if (fresh) {
    forgetBuildRecord(outDir);
    forgetPreviousBuild(outDir);
  }
  const known = (!fresh && standing) || standingBuild(options);
  if (known.result) return { ...known.result, plan: unchangedPlan(known.result.pages) };
  // The check's time counts as part of the build and of its load stage.
  const started = performance.now() - known.ms;
  const stageMs: BuildResult['stageMs'] = { load: known.ms };
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

  const frontMatter = frontMatterCache(outDir, known.fileHash);
  const loaded = timed(stageMs, 'load', () => loadContent(contentDir, langs, options.siteUrl, frontMatter.read));
  if (!loaded.ok) return result({ errors: [...loaded.problems] });
  const gaps = timed(stageMs, 'load', () => translationGaps(contentDir, langs, options.allowMissing ?? false, loaded.content.messages));
  const foreign = foreignOutDir(outDir) ?? droppedLanguages(outDir, langs);
  if (gaps.errors.length > 0 || foreign) return result({ errors: [...(foreign ? [foreign] : []), ...gaps.errors], warnings: gaps.warnings });
  const { content } = loaded;
  const security = securityTxt(content.site, options.now ?? new Date(), join(contentDir, 'site.json'));
  if (!security.ok) return result({ errors: [security.problem], warnings: gaps.warnings });
  const previous = timed(stageMs, 'load', () => readPreviousBuild(outDir));
  const sink = new FolderSink(fresh ? freshFolder(outDir) : spareFolder(outDir, previous));
  try {
    const built = await buildInto(sink, { options, content, langs, stageMs, previous, known, securityText: security.text });
    const errors = [...unknownKeyProblems(content, contentDir), ...built.errors];
    if (errors.length > 0) {
      await sink.discard();
      return result({ errors, warnings: gaps.warnings });
    }
    const published = await timedAsync(stageMs, 'flush', () => sink.finish(built.records));
    // After the site: a server block that names a new page finds its file already there.
    const deployWritten = timed(stageMs, 'flush', () => writeDeployFiles(outDir, built.records.host.deploy));
    const done = result({ pages: built.pages, assets: built.assets, errors, warnings: gaps.warnings, filesWritten: published.written + deployWritten, cardsRendered: built.cardsRendered, plan: built.plan });
    writeBuildRecord(outDir, known, done, published.out);
    // A whole build (every language, every page rendered) knows every card the site uses: the card cache loses the stale others.
    if (langs.length === LANGUAGES.length && built.pages.every((page) => page.rendered)) timed(stageMs, 'flush', () => pruneCards(built.cardSources));
    frontMatter.save();
    return done;
  } catch (error) {
    await sink.discard();
    throw error;
  }
}

/** A page of the output: rendered by this build, or kept as the previous one wrote it. */
type OutputPage = RenderedDocument | UnchangedDocument;

/** What the stages after loading are given: the build's options, its content, and what the records say of the previous build. */
interface BuildContext {
  options: BuildOptions;
  content: LoadedContent;
  langs: readonly Lang[];
  stageMs: BuildResult['stageMs'];
  previous: PreviousBuild;
  /** What the build record's check found (its file hashes serve the page cache). */
  known: Standing;
  /** The text of `/.well-known/security.txt`. */
  securityText: string;
}

/**
 * The stages after loading, writing through `sink`; returns what was built, the problems found
 * and what the records keep of it. The sink writes and compresses each language's pages in other
 * threads as soon as they are handed over, while this one renders the next language and
 * verifies the whole.
 */
async function buildInto(
  sink: FolderSink,
  { options, content, langs, stageMs, previous, known, securityText }: BuildContext,
): Promise<Pick<BuildResult, 'pages' | 'assets' | 'errors' | 'cardsRendered' | 'plan'> & { records: BuildRecords; cardSources: ReadonlySet<string> }> {
  const { outDir, contentDir } = options;
  const assetsStarted = performance.now();
  // The assets' cached files are kept as their cache holds them (linked into the output); the others written.
  const assetOutput = new SinkAssets(sink);
  const assets = await buildAssets(sink.dir, options.cssEntry, content, langs, assetOutput);
  stageMs.assets = performance.now() - assetsStarted;
  const routes = content.routes.allRoutes(langs);
  // The pages' titles and descriptions as their heads show them, for the cards and llms.txt.
  const fill = filledPages(content.values);
  const discovery = discoveryMemo(outDir, content, langs, { contentDir, known }, options.cache === false);
  const { cards, rendered: cardsRendered } = await timedAsync(stageMs, 'assets', () => socialCards(content, routes, fill, discovery));
  for (const card of cards.values()) sink.keep(card.file, { hash: card.hash, source: card.source });
  const year = (options.now ?? new Date()).getUTCFullYear();
  const shared = sharedInputs(renderCodeHash(), content, assets, routes, langs, year);
  const cache = pageCache(previous, shared, content, contentDir, known.fileHash, options.now, (path) => cards.get(path)?.url ?? '');
  const pagePlan = timed(stageMs, 'render', () =>
    planPages({ previous: cache.previous, shared, pages: pageRoutes(routes, langs), inputsOf: (page, recorded) => cache.plannedInputs(page.route, recorded), stringValue: cache.stringValue, files: cache.files }),
  );
  const reuse = (_route: PageRoute, file: string) => pagePlan.get(file)?.decision === 'keep';
  const position = new Map(routes.map((route, i) => [route.path, i]));
  const outputPages: OutputPage[] = [];
  const skeletons = new Map<string, string>();
  const renderedRecords = new Map<string, PageRecord>();
  const keptRecords = new Map<string, PageRecord>();
  const problems: Problem[] = [];
  const pages: BuiltPage[] = [];
  for (const lang of langs) {
    const rendered = await timedAsync(stageMs, 'render', () => renderPages(content, assets, { contentDir, langs: [lang], routes, year, cards, reuse }));
    timed(stageMs, 'write', () => {
      const sizes = sink.write(rendered.documents.map((d) => ({ file: d.file, text: d.html })));
      rendered.documents.forEach((document, i) => {
        const { hash, bytes } = sizes[i]!;
        renderedRecords.set(document.file, cache.rendered({ ...document, canonical: document.aliasOf ?? document.path }, document, { hash, bytes, skeleton: '' }));
      });
      for (const document of rendered.unchanged) {
        const record = cache.kept(document.file, document.lang);
        keptRecords.set(document.file, record);
        sink.keep(document.file, { hash: record.html, bytes: record.bytes, source: join(outDir, document.file) });
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
  timed(stageMs, 'write', () => sink.write(siteFiles));
  // A page whose content failed is reported at its cause; the index of the pages waits for a build without problems.
  const llms = problems.length === 0 ? llmsTxt({ ...content, fill, langs }, discovery) : new Map<string, string>();
  if (problems.length === 0) discovery.save();
  siteFiles.push(...[...llms].map(([file, text]) => ({ file, text })));
  timed(stageMs, 'write', () => sink.write(siteFiles.slice(3)));

  const written = new Set([...assetOutput.files, ...[...cards.values()].map((c) => c.file), ...outputPages.map((d) => d.file), ...siteFiles.map((f) => f.file)]);
  // The checks and the host configurations read the pages' tags, scripts and styles, the
  // sitemap and the list of files: when none of these changed, they come out as last time.
  // Reading a page's skeleton costs about a third of rendering it, so it is read here only when
  // few pages were rendered; otherwise the checks run, and they read every page's skeleton as
  // they scan it: recorded, it lets the next build (one string changed) skip the checks.
  // The checks do not read the sitemap's dates: a page whose text changed moves its <lastmod>, which must not run them again.
  const sitemapChecked = sitemap.replace(/ {4}<lastmod>[^<]*<\/lastmod>\n/g, '');
  const checksKeyOf = (skeletonOf: (file: string) => string | undefined) =>
    digest(...Object.values(shared), sitemapChecked, robots, [...written].sort().join('\n'), ...outputPages.map((d) => `${d.file} ${d.path} ${d.aliasOf ?? ''} ${skeletonOf(d.file) ?? ''}`));
  let checksKey = renderedRecords.size <= skeletonsCompared(outputPages.length) ? timed(stageMs, 'write', () => {
    for (const document of outputPages) if (document.html !== undefined) skeletons.set(document.file, (renderedRecords.get(document.file)!.skeleton = skeletonHash(document.html)));
    return checksKeyOf((file) => skeletons.get(file));
  }) : '';
  let verified: Problem[] = [];
  let host = previous.manifest?.host ?? { published: {}, deploy: {} };
  const checks = planChecks({ rendered: renderedRecords.size, pages: outputPages.length, key: checksKey, previousKey: previous.manifest?.checksKey });
  if (checks.run) {
    // Loaded only when they run: a rebuild whose checks are skipped does not set up their modules (and the host files' schemas).
    const [{ validateOutput }, { hostConfigs }] = await Promise.all([import('../verify/verify-output.ts'), import('../host/host-configs.ts')]);
    const documents = outputPages.map((d) => ({ ...d, html: d.html ?? readFileSync(join(outDir, d.file), 'utf8') }));
    // Pages not built (other languages, or pages whose content failed and is reported at its cause)
    // count as present, so each problem is reported once, not again at every link to the page.
    const builtPaths = new Set(documents.map((d) => d.path));
    const unbuiltPages = new Set(content.routes.allRoutes().map((r) => r.path).filter((p) => !builtPaths.has(p)));
    const scanned = new Map<string, string>();
    // The cards and the cached images are linked into the output at the end: their size is read from the assets' cache.
    const cardSources = new Map([...cards.values()].map((card) => [card.file, card.source]));
    const imageSize = (file: string) => pngSize(cardSources.get(file) ?? assetOutput.sources.get(file) ?? join(sink.dir, file));
    verified = timed(stageMs, 'verify', () => validateOutput({ siteUrl: content.site.siteUrl, documents, sitemap, exists: (file) => written.has(file), unbuiltPages, imageSize }, scanned));
    host = timed(stageMs, 'host', () => hostConfigs({ siteUrl: content.site.siteUrl, ingestUrl: content.site.ingestUrl, routes, langs, html: documents.map((d) => d.html), manifest: true }));
    for (const [file, record] of [...renderedRecords, ...keptRecords]) record.skeleton = scanned.get(file) ?? '';
    checksKey = checksKeyOf((file) => scanned.get(file));
  }
  sink.write(Object.entries(host.published).map(([file, text]) => ({ file, text })));
  return {
    pages,
    assets: { css: assets.stylesheet, cssBytes: assets.cssBytes, islands: assets.islands.files },
    errors: [...problems, ...verified],
    cardsRendered,
    cardSources: new Set([...cards.values()].map((card) => card.source)),
    plan: { pages: [...pagePlan.values()], checks },
    records: { ...cache.records(), checksKey, host },
  };
}
