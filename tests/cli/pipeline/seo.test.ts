import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scanTags } from '../../../cli/verify/html-scan.ts';
import { createTranslator } from '../../../cli/site/i18n.ts';
import { LANGUAGES, LOCALES } from '../../../cli/site/languages.ts';
import { loadAllMessages } from '../../../cli/site/locales.ts';
import { DEFAULT_PATHS } from '../../../cli/paths.ts';
import { allRoutes, fileForPath, isIndexed, notFoundPath, siteRoutes } from '../../../cli/site/routes.ts';
import { loadContentPages } from '../../../cli/site/markdown/content-pages.ts';
import { titleWithoutBrand } from '../../../cli/site/head/page-meta.ts';
import { loadSiteConfig, placeholderValues } from '../../../cli/site/site-config.ts';
import { socialImageSvg, wrapText } from '../../../cli/assets/cards/social-image.ts';
import { useBuiltSite } from '../../helpers/built-site.ts';

const site = loadSiteConfig(DEFAULT_PATHS.contentDir);
const messages = loadAllMessages(DEFAULT_PATHS.contentDir);
const SITE = site.siteUrl;
const built = useBuiltSite();

const read = (file: string) => readFileSync(join(built.outDir, file));
const local = (url: string) => url.slice(SITE.length + 1);

/** The pixel size written in a PNG's IHDR chunk. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(1, 4).toString()).toBe('PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** `property`/`name` → every content value of the page's `<meta>` tags. */
function metas(html: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const tag of scanTags(html).filter((t) => t.name === 'meta')) {
    const key = tag.attrs.property ?? tag.attrs.name;
    if (key) found.set(key, [...(found.get(key) ?? []), tag.attrs.content ?? '']);
  }
  return found;
}

describe('sharing previews', () => {
  // The noindex service pages (the newsletter's, a plain form's results) have no og:url and no alternates: tests/cli/pipeline/service-pages.test.ts.
  it.each(allRoutes().filter((r) => isIndexed(r.page)).map((r) => [r.path, r] as const))('%s has Open Graph and Twitter tags in its language', (_path, route) => {
    const html = read(fileForPath(route.path)).toString();
    const meta = metas(html);
    const t = createTranslator(route.lang, messages, placeholderValues(site));
    expect(meta.get('og:title')).toEqual([t(`meta.${route.page}.title`)]);
    expect(meta.get('og:description')).toEqual([t(`meta.${route.page}.description`)]);
    expect(meta.get('og:url')).toEqual([SITE + route.canonical]);
    expect(meta.get('og:site_name')).toEqual([site.brand]);
    expect(meta.get('og:locale')).toEqual([LOCALES[route.lang]]);
    expect(meta.get('og:locale:alternate')?.sort()).toEqual(LANGUAGES.filter((l) => l !== route.lang).map((l) => LOCALES[l]).sort());
    expect(meta.get('twitter:card')).toEqual(['summary_large_image']);
    const [image] = meta.get('og:image')!;
    expect(image).toMatch(new RegExp(`^${SITE}/assets/social/${route.lang}/[0-9a-f]{16}\\.png$`));
    expect(meta.get('twitter:image')).toEqual([image]);
    expect(meta.get('og:image:alt')).toEqual([`${site.brand}: ${titleWithoutBrand(t(`meta.${route.page}.title`), site.brand)}`]);
    expect(pngSize(read(local(image!)))).toEqual({ width: 1200, height: 630 });
  });

  it('gives every indexed page of every language its own card, 1200×630, that its tags point to', () => {
    const routes = siteRoutes(loadContentPages(DEFAULT_PATHS.contentDir).pages).allRoutes().filter((r) => isIndexed(r.page) && r.path === r.canonical);
    const images = routes.map((route) => metas(read(fileForPath(route.path)).toString()).get('og:image')![0]!);
    expect(routes.some((r) => r.page.startsWith('content:'))).toBe(true);
    expect(new Set(images).size).toBe(routes.length);
    for (const image of images) expect(pngSize(read(local(image))), image).toEqual({ width: 1200, height: 630 });
  });

  it('gives each language its own image', () => {
    const images = LANGUAGES.map((lang) => metas(read(fileForPath(allRoutes([lang])[0]!.path)).toString()).get('og:image')![0]!);
    expect(new Set(images).size).toBe(LANGUAGES.length);
    expect(new Set(images.map((url) => read(local(url)).toString('base64'))).size).toBe(LANGUAGES.length);
  });

  it('gives the 404 pages an image and a locale but no URL of their own', () => {
    for (const lang of LANGUAGES) {
      const meta = metas(read(fileForPath(notFoundPath(lang))).toString());
      expect(meta.get('og:url')).toBeUndefined();
      expect(meta.get('og:locale')).toEqual([LOCALES[lang]]);
      expect(meta.get('og:image')?.[0]).toContain(`/assets/social/${lang}.`);
    }
  });
});

describe('the sharing image', () => {
  it('wraps a long headline within the width, and escapes what it writes', () => {
    const lines = wrapText('Protect sensitive data in every copy of your database, everywhere you keep one', 68, 1040);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.join(' ')).toBe('Protect sensitive data in every copy of your database, everywhere you keep one');
    const svg = socialImageSvg({ brand: 'A&B', title: 'Data <masking> & more', tagline: 't', host: 'x.io' });
    expect(svg).toContain('A&amp;B');
    expect(svg).toContain('Data &lt;masking&gt; &amp; more');
  });

  it('wraps a long German or French card title within three lines, never past the card, and keeps every word', () => {
    for (const title of ['Datenmaskierung für das Gesundheitswesen, die öffentliche Verwaltung und Finanzdienstleister in ganz Europa', 'Masquage des données pour le secteur de la santé, les administrations publiques et les établissements financiers']) {
      const svg = socialImageSvg({ brand: 'MaskWise', title, tagline: 'Lösungen', host: 'www.maskwise.io' });
      const lines = [...svg.matchAll(/<text x="80" y="\d+"[^>]*font-size="(\d+)"[^>]*>([^<]*)<\/text>/g)].filter((m) => !['Lösungen'].includes(m[2]!));
      expect(lines.length, title).toBeLessThanOrEqual(3);
      expect(lines.map((m) => m[2]).join(' ')).toBe(title);
      const size = Number(lines[0]![1]);
      expect(size).toBeGreaterThanOrEqual(40);
      expect(wrapText(title, size, 1040)).toHaveLength(lines.length);
    }
  });

  it('escapes a card title with markup characters', () => {
    const svg = socialImageSvg({ brand: 'MaskWise', title: 'Sécurité & conformité <RGPD> "2026"', tagline: 'Légal', host: 'x.io' });
    expect(svg).toContain('>Sécurité &amp; conformité &lt;RGPD&gt;</text>');
    expect(svg).toContain('>&quot;2026&quot;</text>');
    expect(svg).not.toContain('<RGPD>');
  });
});

describe('Organization JSON-LD', () => {
  it.each(LANGUAGES)('the %s pages describe the company, with a logo search engines can show', (lang) => {
    for (const route of allRoutes([lang]).filter((r) => r.page === 'home' || r.page === 'about')) {
      const html = read(fileForPath(route.path)).toString();
      const json = html.match(/<script type="application\/ld\+json">([^<]*)<\/script>/)?.[1];
      const { '@context': context, '@graph': graph } = JSON.parse(json!);
      expect(context).toBe('https://schema.org');
      const organization = graph.find((node: { '@type': string }) => node['@type'] === 'Organization');
      expect(organization).toMatchObject({
        '@id': `${SITE}/#organization`,
        name: site.brand,
        legalName: site.company.legalName,
        url: `${SITE}/`,
        email: site.email,
        sameAs: expect.arrayContaining([site.social.linkedin, site.social.telegram]),
      });
      expect(pngSize(read(local(organization.logo))).width).toBeGreaterThanOrEqual(112);
    }
  });
});

describe('web app manifest and icons', () => {
  it('links the manifest, favicon.ico, the SVG icon and the apple-touch-icon from every page', () => {
    for (const route of allRoutes()) {
      const links = scanTags(read(fileForPath(route.path)).toString()).filter((t) => t.name === 'link');
      const href = (rel: string) => links.find((l) => l.attrs.rel === rel && (rel !== 'icon' || l.attrs.href === '/favicon.ico'))?.attrs.href;
      expect(href('manifest'), route.path).toBe('/manifest.webmanifest');
      expect(href('icon'), route.path).toBe('/favicon.ico');
      expect(href('apple-touch-icon'), route.path).toBe('/apple-touch-icon.png');
      expect(links.some((l) => l.attrs.rel === 'icon' && l.attrs.href === '/favicon.svg'), route.path).toBe(true);
    }
  });

  it('writes a manifest whose icons exist in their stated sizes, one of them maskable', () => {
    const manifest = JSON.parse(read('manifest.webmanifest').toString());
    expect(manifest).toMatchObject({ name: site.brand, short_name: site.brand, start_url: '/', theme_color: '#0b1f3a' });
    for (const icon of manifest.icons as { src: string; sizes: string }[]) {
      const [width, height] = icon.sizes.split('x').map(Number);
      expect(pngSize(read(icon.src.slice(1))), icon.src).toEqual({ width, height });
    }
    expect(manifest.icons.some((i: { purpose: string; sizes: string }) => i.purpose === 'maskable' && i.sizes === '512x512')).toBe(true);
  });

  it('writes favicon.ico with 16, 32 and 48 px PNG images, and a 180 px apple-touch-icon', () => {
    const ico = read('favicon.ico');
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2), ico.readUInt16LE(4)]).toEqual([0, 1, 3]);
    const sizes = [0, 1, 2].map((i) => {
      const entry = 6 + 16 * i;
      const png = ico.subarray(ico.readUInt32LE(entry + 12), ico.readUInt32LE(entry + 12) + ico.readUInt32LE(entry + 8));
      expect(pngSize(png).width).toBe(ico.readUInt8(entry));
      return ico.readUInt8(entry);
    });
    expect(sizes).toEqual([16, 32, 48]);
    expect(pngSize(read('apple-touch-icon.png'))).toEqual({ width: 180, height: 180 });
  });
});
