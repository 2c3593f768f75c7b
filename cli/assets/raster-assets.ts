import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { cachedFolder, copyCached, inputsHash } from './asset-cache.ts';
import { appIconSvg, faviconSvg, icoFromPngs } from './favicon.ts';
import { ICONS } from '../site/asset-paths.ts';
import type { Lang } from '../site/languages.ts';
import { moduleGraph } from './module-graph.ts';
import { socialImageSvg, type SocialImageText } from './cards/social-image.ts';

/** What the rendered images are built from besides their texts (this module and what it imports): a change rebuilds them. */
const inputs = () => [...moduleGraph([new URL(import.meta.url)]), 'package-lock.json'];

/** The URL path of each language's sharing image (content-hashed, under /assets/social/). */
export type SocialImages = Partial<Record<Lang, string>>;

async function renderAll(dir: string, texts: Readonly<Partial<Record<Lang, SocialImageText>>>): Promise<SocialImages> {
  // Imported only when the images are not cached: loading the native renderer costs time.
  const { Resvg } = await import('@resvg/resvg-js');
  const png = (svg: string) => Buffer.from(new Resvg(svg, { font: { loadSystemFonts: true, defaultFontFamily: 'Liberation Sans' } }).render().asPng());
  const write = (path: string, data: Buffer) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), data);
  };
  const social: SocialImages = {};
  for (const [lang, text] of Object.entries(texts) as [Lang, SocialImageText][]) {
    const image = png(socialImageSvg(text));
    const path = `/assets/social/${lang}.${createHash('sha256').update(image).digest('hex').slice(0, 10)}.png`;
    write(path, image);
    social[lang] = path;
  }
  const favicon = faviconSvg();
  write(ICONS.favicon, icoFromPngs([16, 32, 48].map((size) => ({ size, png: png(favicon.replace('<svg ', `<svg width="${size}" height="${size}" `)) }))));
  write(ICONS.appleTouch, png(appIconSvg(180, 'square')));
  write(ICONS.any192, png(appIconSvg(192, 'rounded')));
  write(ICONS.any512, png(appIconSvg(512, 'rounded')));
  write(ICONS.maskable512, png(appIconSvg(512, 'maskable')));
  return social;
}

/**
 * Writes the raster images into `outDir`: each language's 1200×630 sharing image and the icon
 * set (`favicon.ico` with 16, 32 and 48 px, apple-touch-icon, 192/512 px app icons, a maskable
 * one). They are rendered from SVG with resvg only when their texts or sources changed, and
 * otherwise copied from the assets' cache (or handed to `place`, as `islandBundle` does). Returns
 * the sharing images' URL paths.
 */
export async function rasterAssets(outDir: string, texts: Readonly<Partial<Record<Lang, SocialImageText>>>, useCache: boolean, place = (dir: string) => copyCached(dir, outDir)): Promise<SocialImages> {
  if (!useCache) return renderAll(outDir, texts);
  const key = createHash('sha256').update(inputsHash(inputs())).update(JSON.stringify(texts)).digest('hex').slice(0, 16);
  const { dir } = await cachedFolder('images', key, async (staging) => {
    writeFileSync(join(staging, 'manifest.json'), JSON.stringify(await renderAll(staging, texts)));
  });
  place(dir);
  return JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as SocialImages;
}
