import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTranslator } from '../../../cli/site/i18n.ts';
import { LANGUAGES, NATIVE_NAMES } from '../../../cli/site/languages.ts';
import { loadAllMessages } from '../../../cli/site/locales.ts';
import { DEFAULT_PATHS } from '../../../cli/paths.ts';
import { loadContentPages } from '../../../cli/site/markdown/content-pages.ts';
import { allRoutes, fileForPath, isIndexed, notFoundPath, pathFor, siteRoutes } from '../../../cli/site/routes.ts';
import { loadSiteConfig, placeholderValues } from '../../../cli/site/site-config.ts';
import { attributeOf, builtSite, normalizeSpace, readBuilt, useBuiltSite, visibleText } from '../../helpers/built-site.ts';

const site = loadSiteConfig(DEFAULT_PATHS.contentDir);
const messages = loadAllMessages(DEFAULT_PATHS.contentDir);
const SITE = site.siteUrl;
/** The whole routes table: the fixed pages and the pages added as Markdown (tests/cli/pipeline/content-pages.test.ts tests those). */
const routes = siteRoutes(loadContentPages(DEFAULT_PATHS.contentDir).pages);
const built = useBuiltSite();

describe('sitegen build', () => {
  it('writes all 218 pages of the routes table plus one 404 page per language', async () => {
    const { result } = await builtSite();
    expect(allRoutes()).toHaveLength(218);
    expect(result.pages).toHaveLength(routes.allRoutes().length + LANGUAGES.length);
    for (const route of allRoutes()) expect(existsSync(join(built.outDir, fileForPath(route.path))), route.path).toBe(true);
  });

  // The service pages (the newsletter's, a plain form's results, a plain contact message's) are noindex, without canonical or alternates: tests/cli/pipeline/service-pages.test.ts.
  it.each(allRoutes().filter((r) => isIndexed(r.page)).map((r) => [r.path, r] as const))('%s has the right lang, title, canonical and alternates', (_path, route) => {
    const html = readBuilt(built.outDir, fileForPath(route.path));
    const t = createTranslator(route.lang, messages, placeholderValues(site));
    expect(html).toMatch(new RegExp(`^<!DOCTYPE html><html lang="${route.lang}"`));
    expect(html).toContain(`<title>${t(`meta.${route.page}.title`).replace(/&/g, '&amp;')}</title>`);
    expect(attributeOf(html, /<meta name="description"[^>]*>/, 'content')).toBeTruthy();
    expect(attributeOf(html, /<link rel="canonical"[^>]*>/, 'href')).toBe(SITE + route.canonical);
    for (const lang of LANGUAGES) {
      expect(html).toContain(`<link rel="alternate" hrefLang="${lang}" href="${SITE}${pathFor(route.page, lang)}"/>`);
    }
    expect(html).toContain(`<link rel="alternate" hrefLang="x-default" href="${SITE}${pathFor(route.page, 'en')}"/>`);
  });

  it('serves the Spanish legal notice at /aviso-legal with the canonical /es/aviso-legal', () => {
    const html = readBuilt(built.outDir, 'aviso-legal.html');
    expect(html).toContain('<html lang="es"');
    expect(attributeOf(html, /<link rel="canonical"[^>]*>/, 'href')).toBe(`${SITE}/es/aviso-legal`);
  });

  it.each(LANGUAGES)('the %s 404 page shows the error in its language, in the site layout', (lang) => {
    const html = readBuilt(built.outDir, fileForPath(notFoundPath(lang)));
    const t = createTranslator(lang, messages, placeholderValues(site));
    expect(html).toContain(`<html lang="${lang}"`);
    expect(visibleText(html)).toContain(normalizeSpace(t('notFound.heading')));
    expect(visibleText(html)).toContain(normalizeSpace(t('notFound.status')));
    expect(html).toContain('<meta name="robots" content="noindex"/>');
    expect(html).toContain(`href="${pathFor('home', lang)}"`);
  });

  it.each(LANGUAGES)('regression: the %s 404 page says "page not found", not the old router default, and links the main pages', (lang) => {
    const html = readBuilt(built.outDir, fileForPath(notFoundPath(lang)));
    expect(visibleText(html)).not.toMatch(/Unexpected Application Error|Error inesperado|Anwendungsfehler/i);
    const links = html.slice(html.indexOf('<main'), html.indexOf('</main>'));
    for (const page of ['home', 'about', 'contact', 'privacy', 'legalNotice'] as const) {
      expect(links, page).toContain(`href="${pathFor(page, lang)}"`);
    }
  });

  it('links the language menu of every page to the same page in each language, by native name', () => {
    for (const route of allRoutes()) {
      const html = readBuilt(built.outDir, fileForPath(route.path));
      for (const lang of LANGUAGES) {
        expect(html, route.path).toMatch(new RegExp(`<a href="${pathFor(route.page, lang)}" lang="${lang}"[^>]*>${NATIVE_NAMES[lang]}`));
      }
    }
  });

  it('points the demo and sales buttons at their contact pages, naming the page they are on, and the footer contact link at the contact form', () => {
    const home = readBuilt(built.outDir, 'de.html');
    const hero = home.slice(home.indexOf('<main'), home.indexOf('id="overview"'));
    expect(hero).toMatch(/href="\/de\/contact\/demo\?from=\/de#contact-form"[^>]*>Demo vereinbaren/);
    expect(home).toMatch(/href="\/de\/contact\/sales\?from=\/de#contact-form"[^>]*>Vertrieb kontaktieren/);
    const footer = home.slice(home.indexOf('<footer'));
    expect(footer).toMatch(/href="\/de\/contact\?from=\/de#contact-form"[^>]*>Kontakt</);
    // The newsletter section and its sign-up links stay.
    expect(home).toContain('id="newsletter"');
    expect(home).toContain('href="#newsletter"');
    expect(home).not.toMatch(/href="#newsletter"[^>]*>(Demo vereinbaren|Vertrieb kontaktieren)/);
    const about = readBuilt(built.outDir, 'de/about.html');
    expect(about).toContain('href="/de/contact/sales?from=/de/about#contact-form"');
    expect(about).not.toMatch(/href="\/de#newsletter"[^>]*>Vertrieb kontaktieren/);
  });

  it('gives every page one filled header action, a demo request naming the page, and the newsletter as a plain link', () => {
    for (const route of routes.allRoutes()) {
      const html = readBuilt(built.outDir, fileForPath(route.path));
      const header = html.slice(0, html.indexOf('<main'));
      const filled = [...header.matchAll(/<a [^>]*class="bg-teal-700[^"]*"[^>]*>/g)].map((m) => attributeOf(m[0], /<a [^>]*>/, 'href'));
      const onContactPage = ['contact', 'contactDemo', 'contactSales'].includes(route.page);
      const demoLink = `${pathFor('contactDemo', route.lang)}${onContactPage ? '' : `?from=${route.canonical}`}#contact-form`;
      // The header's button (wide screens) and the phone menu's, which the page renders inside <details> until it hydrates.
      expect(filled, route.path).toEqual([demoLink, demoLink]);
      expect(header, route.path).toMatch(/<a href="[^"]*#newsletter" class="hidden rounded-md/);
    }
  });

  it('renders each contact page with its reason selected in the form, so a form sent without JavaScript keeps it', () => {
    for (const [file, selected, heading] of [
      ['fr/contact.html', 'general', 'Contactez notre équipe'],
      ['fr/contact/demo.html', 'demo', 'Demander une démo'],
      ['fr/contact/sales.html', 'sales', 'Contacter l’équipe commerciale'],
    ] as const) {
      const html = readBuilt(built.outDir, file);
      expect(html, file).toMatch(new RegExp(`<h1[^>]*>${heading}</h1>`));
      const select = html.slice(html.indexOf('<select id="contact-intent"'), html.indexOf('</select>', html.indexOf('<select id="contact-intent"')));
      expect(select).toContain('name="intent"');
      expect([...select.matchAll(/<option value="(\w+)"( selected="")?>([^<]*)</g)].map((m) => [m[1], m[3], !!m[2]])).toEqual([
        ['demo', 'Demander une démonstration', selected === 'demo'],
        ['sales', 'Question commerciale', selected === 'sales'],
        ['general', 'Question générale', selected === 'general'],
      ]);
    }
  });

  it('opens the blog in a new tab without giving it access to the page', () => {
    const html = readBuilt(built.outDir, 'index.html');
    expect(html).toContain(`href="${site.blogUrl}" target="_blank" rel="noopener"`);
  });

  it('shows the footer contact details and the build year', () => {
    const text = visibleText(readBuilt(built.outDir, 'fr/about.html'));
    expect(text).toContain(site.email);
    expect(text).toContain(site.phone);
    expect(text).toContain('2026');
    expect(text).toContain(site.company.legalName);
  });

  it('writes a sitemap with every canonical page and its hreflang alternates, and robots.txt', () => {
    const sitemap = readBuilt(built.outDir, 'sitemap.xml');
    const canonical = routes.allRoutes().filter((r) => r.path === r.canonical && isIndexed(r.page));
    expect(sitemap.match(/<url>/g)).toHaveLength(canonical.length);
    for (const route of canonical) expect(sitemap).toContain(`<loc>${SITE}${route.path}</loc>`);
    expect(sitemap).not.toContain(`<loc>${SITE}/aviso-legal</loc>`);
    expect(sitemap.match(/<xhtml:link /g)).toHaveLength(canonical.reduce((sum, r) => sum + routes.alternatesFor(r.page).length + 1, 0));
    expect(readBuilt(built.outDir, 'robots.txt')).toContain(`Sitemap: ${SITE}/sitemap.xml`);
  });

  it('links one content-hashed stylesheet that holds the classes the templates use and no unused ones', () => {
    const html = readBuilt(built.outDir, 'index.html');
    const href = attributeOf(html, /<link rel="stylesheet"[^>]*>/, 'href') ?? '';
    expect(href).toMatch(/^\/assets\/styles\.[0-9a-f]{10}\.css$/);
    const css = readBuilt(built.outDir, href.slice(1));
    expect(css).toContain('.bg-navy-950');
    expect(css).toContain('prefers-reduced-motion');
    expect(css).not.toContain('.bg-fuchsia-900');
  });

  it('renders the legal texts from Markdown with the site.json values filled in', () => {
    const html = readBuilt(built.outDir, 'de/impressum.html');
    expect(html).toContain(site.company.taxId);
    expect(html).not.toMatch(/\{\{\s*\w+\s*\}\}/);
    expect(html).toMatch(/<h2 id="[a-z0-9-]+">/);
  });
});

describe('translated pages', () => {
  const english = Object.values(
    Object.fromEntries(
      [...new Map(Object.entries(flattenStrings(messages.get('en')!))).entries()].map(([k, v]) => [k, v]),
    ),
  )
    .map((value) => value.replace(/<\/?\w+>/g, '').replace(/\{\{\s*\w+\s*\}\}/g, '').trim())
    .filter((value) => value.split(/\s+/).length >= 4);

  it.each(LANGUAGES.filter((l) => l !== 'en'))('no %s page shows an English sentence from en.json', (lang) => {
    for (const route of allRoutes([lang])) {
      const text = visibleText(readBuilt(built.outDir, fileForPath(route.path)));
      for (const sentence of english) expect(text, `${route.path} contains "${sentence}"`).not.toContain(sentence);
    }
  });
});

describe('island props', () => {
  it('the contact form\'s JSON leaves out the country list, which its select already renders', () => {
    const html = readBuilt(built.outDir, fileForPath(pathFor('contact', 'de')));
    const json = /<script type="application\/json" data-island-props="ContactForm">([^<]*)<\/script>/.exec(html)?.[1];
    expect(json).toBeDefined();
    const props = JSON.parse(json!) as Record<string, unknown>;
    expect(props).not.toHaveProperty('countries');
    expect(props).toHaveProperty('strings');
    const select = /<select[^>]*name="country"[^>]*>([\s\S]*?)<\/select>/.exec(html)?.[1] ?? '';
    expect(select.match(/<option value="[a-z]{2}">/g)).toHaveLength(249);
  });
});

function flattenStrings(tree: unknown, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(tree as Record<string, unknown>)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out[path] = value;
    else Object.assign(out, flattenStrings(value, path));
  }
  return out;
}
