import { createHash } from 'node:crypto';
import { copyCached } from '../assets/asset-cache.ts';
import { islandBundle, stylesheet as compiledStylesheet } from '../assets/cached-assets.ts';
import { faviconSvg } from '../assets/favicon.ts';
import { loaderScript } from '../assets/island-loader.ts';
import type { IslandBundle } from '../assets/islands-build.ts';
import { rasterAssets, type SocialImages } from '../assets/raster-assets.ts';
import { webManifest } from '../assets/web-manifest.ts';
import { ICONS, MANIFEST_PATH } from '../site/asset-paths.ts';
import { DEFAULT_LANG, type Lang } from '../site/languages.ts';
import { parseCss, plainCustomProperties, type CssNode } from './critical-css.ts';
import type { LoadedContent } from './load-content.ts';
import { writeOutFile } from '../files/folder-files.ts';

/** What the pages link to and inline, produced by the assets stage. */
export interface SiteAssets {
  /** The URL of the content-hashed stylesheet, its size, and its rules for critical CSS. */
  stylesheet: string;
  cssBytes: number;
  cssRules: readonly CssNode[];
  islands: IslandBundle;
  /** The island loader's source, inlined in pages with islands. */
  loader: string;
  socialImages: SocialImages;
}

/**
 * Where the assets stage puts its files: the files of the assets' cache folders and the files it
 * makes. `folderOutput` copies and writes them into a folder (the dev server's assets); a build
 * hands them to its output sink (sink/sink-assets.ts), which links the cached files into the
 * output and writes a made file only when the folder it writes into lacks it.
 */
export interface AssetOutput {
  /** The files of an assets' cache folder (`copyCached` says which), to appear in the output as they are. */
  cached(dir: string): void;
  /** A file this build made, `text` at `file` (relative to the output). */
  text(file: string, text: string): void;
}

/** The asset output that copies the cached files into `outDir` and writes the made ones there. */
const folderOutput = (outDir: string): AssetOutput => ({ cached: (dir) => copyCached(dir, outDir), text: (file, text) => void writeOutFile(outDir, file, text) });

/**
 * The assets stage: the island bundle, the stylesheet and the raster images (side by side, each
 * from the assets' cache, made there when its sources changed), the SVG favicon and the web
 * manifest, all handed to `output` (by default copied and written into `outDir`).
 */
export async function buildAssets(outDir: string, cssEntry: string, content: LoadedContent, langs: readonly Lang[], output = folderOutput(outDir)): Promise<SiteAssets> {
  const { site, translators } = content;
  const host = new URL(site.siteUrl).host;
  const socialTexts = Object.fromEntries(
    langs.map((lang) => {
      const t = translators.get(lang)!;
      return [lang, { brand: site.brand, title: t('hero.title'), tagline: t('hero.eyebrow'), host }];
    }),
  );
  const [islands, css, socialImages] = await Promise.all([
    islandBundle(outDir, true, output.cached),
    compiledStylesheet(cssEntry, true),
    rasterAssets(outDir, socialTexts, true, output.cached),
  ]);
  const stylesheet = `/assets/styles.${createHash('sha256').update(css).digest('hex').slice(0, 10)}.css`;
  output.text(stylesheet.slice(1), css);
  output.text(ICONS.svg.slice(1), faviconSvg());
  const manifestLang = langs.includes(DEFAULT_LANG) ? DEFAULT_LANG : langs[0]!;
  const describe = translators.get(manifestLang)!;
  output.text(MANIFEST_PATH.slice(1), webManifest({ name: site.brand, description: describe('meta.home.description'), lang: manifestLang }));
  const cssBytes = Buffer.byteLength(css);
  return { stylesheet, cssBytes, cssRules: plainCustomProperties(parseCss(css)), islands, loader: loaderScript(), socialImages };
}
