import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContentPages } from '../../../cli/site/markdown/content-pages.ts';
import { fileForPath, notFoundPath, siteRoutes } from '../../../cli/site/routes.ts';
import { LANGUAGES } from '../../../cli/site/languages.ts';
import { loadSiteConfig } from '../../../cli/site/site-config.ts';
import { DEFAULT_PATHS } from '../../../cli/paths.ts';
import type { BuiltOutput, OutputDocument } from '../../../cli/verify/built-output.ts';
import { skeletonHash } from '../../../cli/verify/html-scan.ts';
import { validateOutput as outputProblems } from '../../../cli/verify/verify-output.ts';

/** The problems as `file: message` lines (their codes are checked by the last test). */
const validateOutput = (output: BuiltOutput) => outputProblems(output).map((p) => `${p.file}: ${p.message}`);
import { useBuiltSite } from '../../helpers/built-site.ts';

const SITE = 'https://example.test';

/** A page of the tiny fixture site: English and German home and about pages. */
function page(lang: 'en' | 'de', path: string, pair: [string, string], extra = '', canonical = path): string {
  const [en, de] = pair;
  return [
    `<!DOCTYPE html><html lang="${lang}"><head><title>The page ${path}</title>`,
    `<meta name="description" content="What the page at ${path} offers, in the seventy characters or more a search result shows."/>`,
    `<link rel="canonical" href="${SITE}${canonical}"/>`,
    `<link rel="alternate" hrefLang="en" href="${SITE}${en}"/>`,
    `<link rel="alternate" hrefLang="de" href="${SITE}${de}"/>`,
    `<link rel="alternate" hrefLang="x-default" href="${SITE}${en}"/>`,
    `<link rel="stylesheet" href="/assets/site.css"/></head>`,
    `<body><a href="#main">skip</a><main id="main"><a href="/about">About</a><a href="/de#news">News</a>`,
    `<a href="https://elsewhere.test/x">out</a><a href="mailto:a@b.c">mail</a>${extra}</main>`,
    `<script type="application/json">{"html":"<a href=\\"/nowhere\\" id=\\"main\\">"}</script></body></html>`,
  ].join('');
}

function sitemapEntry(loc: string, pair: [string, string]): string {
  const links = [['en', pair[0]], ['de', pair[1]], ['x-default', pair[0]]]
    .map(([l, p]) => `<xhtml:link rel="alternate" hreflang="${l}" href="${SITE}${p}"/>`)
    .join('');
  return `<url><loc>${SITE}${loc}</loc>${links}</url>`;
}

const HOME: [string, string] = ['/', '/de'];
const ABOUT: [string, string] = ['/about', '/de/about'];

/** The fixture as the build would write it; `change` edits one document's HTML or the sitemap. */
function fixture(change: { file?: string; html?: (html: string) => string; sitemap?: (xml: string) => string } = {}): BuiltOutput {
  const documents: OutputDocument[] = [
    { path: '/', file: 'index.html', html: page('en', '/', HOME) },
    { path: '/de', file: 'de.html', html: page('de', '/de', HOME, '<section id="news">n</section>') },
    { path: '/about', file: 'about.html', html: page('en', '/about', ABOUT) },
    { path: '/de/about', file: 'de/about.html', html: page('de', '/de/about', ABOUT) },
    { path: '/ueber', file: 'ueber.html', html: page('de', '/ueber', ABOUT, '', '/de/about'), aliasOf: '/de/about' },
    { path: '/404', file: '404.html', html: '<!DOCTYPE html><html lang="en"><head><meta name="robots" content="noindex"/></head><body><a href="/">home</a></body></html>' },
  ].map((d) => (d.file === change.file && change.html ? { ...d, html: change.html(d.html) } : d));
  let sitemap = `<urlset>${sitemapEntry('/', HOME)}${sitemapEntry('/de', HOME)}${sitemapEntry('/about', ABOUT)}${sitemapEntry('/de/about', ABOUT)}</urlset>`;
  if (change.sitemap) sitemap = change.sitemap(sitemap);
  const files = new Set([...documents.map((d) => d.file), 'assets/site.css', 'sitemap.xml']);
  return { siteUrl: SITE, documents, sitemap, exists: (file) => files.has(file) };
}

describe('validateOutput on a hand-made site', () => {
  it('finds nothing wrong with a consistent site (links into JSON script props are not links)', () => {
    expect(validateOutput(fixture())).toEqual([]);
  });

  it("gives each page's skeleton hash as it scans it: what skeletonHash gives, unchanged by text, changed by a tag", () => {
    const skeletons = new Map<string, string>();
    const output = fixture();
    outputProblems(output, skeletons);
    expect([...skeletons.keys()]).toEqual(output.documents.map((d) => d.file));
    for (const document of output.documents) expect(skeletons.get(document.file), document.file).toBe(skeletonHash(document.html));
    expect(skeletonHash(page('en', '/', HOME).replace('>skip<', '>jump<'))).toBe(skeletonHash(page('en', '/', HOME)));
    expect(skeletonHash(page('en', '/', HOME).replace('<a href="#main">', '<a href="#main" class="x">'))).not.toBe(skeletonHash(page('en', '/', HOME)));
  });

  it.each([
    ['a link to a page that does not exist', 'index.html', (h: string) => h.replace('href="/about"', 'href="/abuot"'), 'index.html: /abuot resolves to nothing (404)'],
    ['an image that does not exist', 'index.html', (h: string) => h.replace('</main>', '<img src="/logo.png" alt=""/></main>'), 'index.html: /logo.png resolves to nothing (404)'],
    ['a srcset candidate that does not exist', 'index.html', (h: string) => h.replace('</main>', '<img src="/assets/site.css" srcset="/assets/site.css 1x, /big.png 2x" alt=""/></main>'), 'index.html: /big.png resolves to nothing (404)'],
    ['a stylesheet that does not exist', 'de.html', (h: string) => h.replace('/assets/site.css', '/assets/site.0123.css'), 'de.html: /assets/site.0123.css resolves to nothing (404)'],
    ['an island module that does not exist', 'de.html', (h: string) => h.replace('</main>', '<div data-island-src="/assets/islands/Menu.js"></div></main>'), 'de.html: /assets/islands/Menu.js resolves to nothing (404)'],
    ['an absolute link on the site URL to nothing', 'about.html', (h: string) => h.replace('</main>', `<a href="${SITE}/privacy">p</a></main>`), `about.html: ${SITE}/privacy resolves to nothing (404)`],
    ['a link to a wrong-case URL', 'about.html', (h: string) => h.replace('href="/about"', 'href="/About"'), 'about.html: /About redirects to /about; link the canonical URL'],
    ['a fragment with no element on another page', 'index.html', (h: string) => h.replace('/de#news', '/de#newz'), 'index.html: /de#newz points to no element with id "newz" in de.html'],
    ['a fragment with no element on the same page', 'about.html', (h: string) => h.replace('href="#main"', 'href="#content"'), 'about.html: #content points to no element with id "content" in about.html'],
    ['a duplicate id', 'de/about.html', (h: string) => h.replace('</main>', '<p id="main">again</p></main>'), 'de/about.html: id "main" is used 2 times; ids must be unique in a page'],
  ])('reports %s', (_what, file, html, expected) => {
    expect(validateOutput(fixture({ file, html }))).toEqual([expected]);
  });

  it('reports a canonical that points elsewhere, and the cluster that no longer reaches the page', () => {
    const problems = validateOutput(fixture({ file: 'about.html', html: (h) => h.replace(`canonical" href="${SITE}/about"`, `canonical" href="${SITE}/"`) }));
    expect(problems).toContain(`about.html: canonical ${SITE}/ is not self-referencing (expected ${SITE}/about)`);
    expect(problems).toContain(`sitemap.xml: ${SITE}/about is not a canonical, indexable page of the site`);
  });

  it('reports an alias whose canonical is not the page it repeats', () => {
    const problems = validateOutput(fixture({ file: 'ueber.html', html: (h) => h.replace(`canonical" href="${SITE}/de/about"`, `canonical" href="${SITE}/ueber"`) }));
    expect(problems).toEqual([`ueber.html: canonical ${SITE}/ueber should point to the page this alias repeats, ${SITE}/de/about`]);
  });

  it('reports a page without a canonical, and a noindex page with one', () => {
    expect(validateOutput(fixture({ file: 'de.html', html: (h) => h.replace(/<link rel="canonical"[^>]*>/, '') }))).toContain('de.html: has no canonical link');
    expect(validateOutput(fixture({ file: '404.html', html: (h) => h.replace('</head>', `<link rel="canonical" href="${SITE}/"/></head>`) }))).toEqual([
      '404.html: is marked noindex but has a canonical link; a page is either indexed or not',
    ]);
  });

  it('reports a cluster without x-default', () => {
    const problems = validateOutput(fixture({ file: 'de.html', html: (h) => h.replace(/<link rel="alternate" hrefLang="x-default"[^>]*>/, '') }));
    expect(problems).toContain('de.html: hreflang cluster has no x-default');
  });

  it('reports a cluster that is not reciprocal', () => {
    // The German about page forgets its English version.
    const problems = validateOutput(fixture({ file: 'de/about.html', html: (h) => h.replace(`hrefLang="en" href="${SITE}/about"`, `hrefLang="en" href="${SITE}/"`) }));
    expect(problems).toContain(`de/about.html: hreflang "en" points to ${SITE}/, which does not link back to ${SITE}/de/about (not reciprocal)`);
    expect(problems).toContain(`about.html: hreflang "de" points to ${SITE}/de/about, which does not link back to ${SITE}/about (not reciprocal)`);
  });

  it('reports an hreflang whose target is in another language, or no page at all', () => {
    const swapped = validateOutput(fixture({ file: 'index.html', html: (h) => h.replace(`hrefLang="de" href="${SITE}/de"`, `hrefLang="fr" href="${SITE}/de"`) }));
    expect(swapped).toContain(`index.html: hreflang "fr" points to ${SITE}/de, whose language is "de"`);
    const missing = validateOutput(fixture({ file: 'index.html', html: (h) => h.replace(`hrefLang="de" href="${SITE}/de"`, `hrefLang="de" href="${SITE}/de/start"`) }));
    expect(missing).toContain(`index.html: hreflang "de" points to ${SITE}/de/start, which is not a canonical page of the site`);
  });

  it('accepts links and hreflang to the pages a build of some languages only leaves out, and nothing else', () => {
    const full = fixture();
    const englishOnly = full.documents.filter((d) => !d.file.startsWith('de') && d.file !== 'ueber.html');
    const sitemap = full.sitemap.replace(sitemapEntry('/de', HOME), '').replace(sitemapEntry('/de/about', ABOUT), '');
    const exists = (file: string) => file !== 'de.html' && !file.startsWith('de/') && full.exists(file);
    const partial = { ...full, documents: englishOnly, sitemap, exists };
    expect(validateOutput({ ...partial, unbuiltPages: new Set(['/de', '/de/about', '/ueber']) })).toEqual([]);
    expect(validateOutput(partial)).toContain('index.html: /de#news resolves to nothing (404)');
  });

  it('reports a sitemap whose alternates disagree with the head, a missing entry and a stray one', () => {
    const disagree = validateOutput(fixture({ sitemap: (x) => x.replace(`hreflang="de" href="${SITE}/de/about"`, `hreflang="de" href="${SITE}/de/ueber"`) }));
    expect(disagree.some((p) => p.startsWith(`sitemap.xml: alternates of ${SITE}/about disagree with about.html: missing de ${SITE}/de/about; not in the page's head de ${SITE}/de/ueber`))).toBe(true);
    const dropped = validateOutput(fixture({ sitemap: (x) => x.replace(sitemapEntry('/de', HOME), '') }));
    expect(dropped).toEqual([`sitemap.xml: ${SITE}/de (de.html) is missing`]);
    const stray = validateOutput(fixture({ sitemap: (x) => x.replace('</urlset>', `${sitemapEntry('/ueber', ABOUT)}</urlset>`) }));
    expect(stray).toEqual([`sitemap.xml: ${SITE}/ueber is not a canonical, indexable page of the site`]);
  });
});

describe('validateOutput on the real build', () => {
  const built = useBuiltSite();

  it('finds every page of the routes table and every 404 page clean', () => {
    const site = loadSiteConfig(DEFAULT_PATHS.contentDir);
    const read = (file: string) => readFileSync(join(built.outDir, file), 'utf8');
    const documents: OutputDocument[] = [
      ...siteRoutes(loadContentPages(DEFAULT_PATHS.contentDir).pages).allRoutes().map((r) => ({ path: r.path, file: fileForPath(r.path), html: read(fileForPath(r.path)), ...(r.path !== r.canonical ? { aliasOf: r.canonical } : {}) })),
      ...LANGUAGES.map((l) => ({ path: notFoundPath(l), file: fileForPath(notFoundPath(l)), html: read(fileForPath(notFoundPath(l))) })),
    ];
    const exists = (file: string) => {
      try {
        return readFileSync(join(built.outDir, file)).length >= 0;
      } catch {
        return false;
      }
    };
    expect(validateOutput({ siteUrl: site.siteUrl, documents, sitemap: read('sitemap.xml'), exists })).toEqual([]);
  });

  it('regression: the about page\'s contact-sales button leads to the home page\'s newsletter section', () => {
    const about = readFileSync(join(built.outDir, 'de/about.html'), 'utf8');
    expect(about).not.toContain('href="#newsletter"');
    expect(about.match(/href="\/de#newsletter"/g)?.length).toBeGreaterThanOrEqual(2);
  });

  it('reports a social card that is not the size the page states, and accepts one that is', () => {
    const card = `<meta property="og:image" content="${SITE}/assets/social/en/card.png"/><meta property="og:image:width" content="1200"/><meta property="og:image:height" content="630"/>`;
    const base = fixture({ file: 'index.html', html: (h) => h.replace('</head>', `${card}</head>`) });
    const withCard = (size: { width: number; height: number } | undefined) => ({ ...base, exists: (f: string) => f === 'assets/social/en/card.png' || base.exists(f), imageSize: () => size });
    expect(validateOutput(withCard({ width: 1200, height: 630 }))).toEqual([]);
    expect(outputProblems(withCard({ width: 1200, height: 600 })).map((p) => `${p.file}: ${p.message} [${p.code}]`)).toEqual([
      `index.html: og:image ${SITE}/assets/social/en/card.png is 1200×600, but the page states 1200×630 [output_social_image]`,
    ]);
    expect(outputProblems(withCard(undefined))[0]?.message).toContain('is not a PNG');
  });

  it('gives each problem its catalogue code', () => {
    const codes = (output: BuiltOutput) => outputProblems(output).map((p) => p.code);
    expect(codes(fixture({ file: 'de.html', html: (h) => h.replace(/<link rel="alternate" hrefLang="x-default"[^>]*>/, '') }))).toEqual(['output_hreflang', 'output_sitemap']);
    expect(codes(fixture({ sitemap: (x) => x.replace(sitemapEntry('/de', HOME), '') }))).toEqual(['output_sitemap']);
    expect(codes(fixture({ file: 'ueber.html', html: (h) => h.replace(`canonical" href="${SITE}/de/about"`, `canonical" href="${SITE}/ueber"`) }))).toEqual(['output_canonical']);
  });
});
