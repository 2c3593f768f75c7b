import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { islandBundle } from '../assets/cached-assets.ts';
import { buildAssets, type SiteAssets } from '../pipeline/build-assets.ts';
import { parseCss, plainCustomProperties } from '../pipeline/critical-css.ts';
import { type LoadedContent, loadContent, translationGaps, unknownKeyProblems } from '../pipeline/load-content.ts';
import type { RenderedDocument } from '../pipeline/page-document.ts';
import { writeOutFile } from '../files/folder-files.ts';
import { MemorySink } from '../pipeline/sink/memory-sink.ts';
import type { Problem } from '../site/errors.ts';
import { LANGUAGES } from '../site/languages.ts';
import { allRoutes, type RenderedRoute } from '../site/routes.ts';
import { type ChangeEffect, isEverything, isSelected, mergeEffects } from './change-effects.ts';
import { DevStylesheet } from './dev-stylesheet.ts';
import { PageStore } from './page-store.ts';
import { type TemplateLoader, templateProblem } from './template-loader.ts';

/** Where `sitegen dev` reads from and writes its assets to. */
export interface DevBuildOptions {
  /** The project root: problems are reported relative to it, and the template loader loads from it. */
  root: string;
  contentDir: string;
  templatesDir: string;
  cssEntry: string;
  /** A temporary folder for the stylesheet, island scripts and images (never `dist/`). */
  assetDir: string;
  loader: TemplateLoader;
  /** The clock, for the copyright year. */
  now?: () => Date;
}

/** What one rebuild did. */
export interface DevBuildResult {
  /** The page files whose HTML changed (`de/about.html`); empty when the build failed. */
  changed: string[];
  /** Pages rendered (changed or not). */
  rendered: number;
  problems: Problem[];
  durationMs: number;
}

/**
 * The incremental build of `sitegen dev`: the same stages as `sitegen build` (load the content
 * and check it for gaps, assets, render) applied to the pages an edit affects, into a `PageStore`
 * in memory. A rebuild with problems changes nothing served: its pages stay pending and are
 * rendered again, with whatever was edited meanwhile, by the next rebuild.
 */
export class DevBuild {
  readonly pages = new PageStore();
  readonly #options: DevBuildOptions;
  #assets: SiteAssets | null = null;
  #stylesheet: DevStylesheet | null = null;
  #routes: readonly RenderedRoute[] = allRoutes(LANGUAGES);
  /** What has been edited since the last successful rebuild; at first, everything. */
  #pending: ChangeEffect = { css: [], islands: false, pages: [{ langs: LANGUAGES, pages: 'all' }] };

  constructor(options: DevBuildOptions) {
    this.#options = options;
  }

  /** The page types of the site as last read (pages added as Markdown among them), the 404 page included. */
  pageIds(): string[] {
    return [...new Set([...this.#routes.map((route) => route.page as string), 'notFound'])];
  }

  /** Adds an edit's effect to what is pending (nothing, for the first build) and rebuilds it. */
  async rebuild(effect?: ChangeEffect): Promise<DevBuildResult> {
    const started = performance.now();
    if (effect) this.#pending = mergeEffects([this.#pending, effect]);
    const pending = this.#pending;
    const done = (fields: Omit<DevBuildResult, 'durationMs'>): DevBuildResult => ({ ...fields, durationMs: performance.now() - started });
    const failed = (problems: Problem[]) => done({ changed: [], rendered: 0, problems });
    const { contentDir, root } = this.#options;

    // Read again every time (about 15 ms): fresh translators, and a fresh record of unknown keys.
    const loaded = loadContent(contentDir, LANGUAGES);
    if (!loaded.ok) return failed([...loaded.problems]);
    const { content } = loaded;
    const gaps = translationGaps(contentDir, LANGUAGES, false);
    if (gaps.errors.length > 0) return failed(gaps.errors);

    let documents: RenderedDocument[];
    let problems: Problem[];
    try {
      const assets = await this.#updateAssets(content, pending);
      const renderPages = await this.#options.loader.renderPages();
      const year = (this.#options.now?.() ?? new Date()).getUTCFullYear();
      const routes = content.routes.allRoutes(LANGUAGES);
      this.#routes = routes;
      // A 404 page lists every page URL for its wrong-case redirect: it renders with the whole
      // table, which renders every page of its language too.
      const whole = LANGUAGES.filter((lang) => isSelected(pending.pages, lang, 'notFound'));
      const some = LANGUAGES.filter((lang) => !whole.includes(lang) && routes.some((r) => r.lang === lang && isSelected(pending.pages, lang, r.page)));
      const wholeLanguages = whole.length > 0 ? await renderPages(content, assets, { contentDir, langs: whole, routes, year }) : { documents: [], problems: [] };
      const somePages = some.length > 0
        ? await renderPages(content, assets, { contentDir, langs: some, routes: routes.filter((r) => isSelected(pending.pages, r.lang, r.page)), year })
        : { documents: [], problems: [] };
      documents = [...wholeLanguages.documents, ...somePages.documents.filter((d) => d.page !== 'notFound')];
      problems = [...wholeLanguages.problems, ...somePages.problems, ...unknownKeyProblems(content, contentDir)];
    } catch (error) {
      return failed([templateProblem(error, root)]);
    }
    if (problems.length > 0) return failed(problems);

    const sink = new MemorySink(this.pages, { whole: isEverything(pending.pages) });
    sink.write(documents.map((d) => ({ file: d.file, text: d.html })));
    const changed = await sink.finish();
    this.#pending = { css: [], islands: false, pages: [] };
    return done({ changed, rendered: documents.length, problems: [] });
  }

  /**
   * The assets: built whole (from the assets' cache where possible) the first time; afterwards the
   * island bundle again when an island's module changed, and the stylesheet, under a new URL,
   * when an edited template uses a class it lacked.
   */
  async #updateAssets(content: LoadedContent, pending: ChangeEffect): Promise<SiteAssets> {
    const { assetDir, cssEntry, templatesDir } = this.#options;
    if (!this.#assets || !this.#stylesheet) {
      this.#assets = await buildAssets(assetDir, cssEntry, content, LANGUAGES);
      this.#stylesheet = await DevStylesheet.create(cssEntry);
      return this.#assets;
    }
    if (pending.islands) this.#assets = { ...this.#assets, islands: await islandBundle(assetDir, true) };
    let changed = false;
    if (pending.css === 'all') {
      const before = this.#stylesheet.css;
      this.#stylesheet = await DevStylesheet.create(cssEntry);
      changed = this.#stylesheet.css !== before;
    } else if (pending.css.length > 0) {
      changed = this.#stylesheet.addClassesOf(pending.css.map((file) => join(templatesDir, file)));
    }
    if (changed) {
      const { css } = this.#stylesheet;
      const stylesheet = `/assets/styles.${createHash('sha256').update(css).digest('hex').slice(0, 10)}.css`;
      const cssBytes = writeOutFile(assetDir, stylesheet.slice(1), css);
      this.#assets = { ...this.#assets, stylesheet, cssBytes, cssRules: plainCustomProperties(parseCss(css)) };
    }
    return this.#assets;
  }
}
