import { describe, expect, it } from 'vitest';
import { classesInHtml, criticalCss, parseCss, plainCustomProperties, siteOriginProperty } from '../../../cli/pipeline/critical-css.ts';
import { readBuilt, useBuiltSite } from '../../helpers/built-site.ts';

const built = useBuiltSite();

const CSS = [
  '/*! banner */@layer theme,base,utilities;',
  '@layer base{*,:before{box-sizing:border-box}html{line-height:1.5}}',
  '@layer utilities{.flex{display:flex}.grid{display:grid}.mt-0\\.5{margin-top:.125rem}.hover\\:bg-white\\/10:hover{background:#fff1}',
  '.sm\\:px-6{x:1}:where(.group):is([open]) .group-open\\:rotate-180{rotate:180deg}.a,.b .c{color:red}',
  '@media (min-width:40rem){.sm\\:px-6{padding-inline:1.5rem}.grid{gap:1rem}}@supports (color:red){.grid{color:red}}}',
  '@keyframes fade{from{opacity:0}to{opacity:1}}@property --tw-x{syntax:"*";inherits:false}',
].join('');

describe('critical CSS', () => {
  const nodes = parseCss(CSS);

  it('keeps the rules whose classes the markup uses, with their media and layers, and every rule without classes', () => {
    const css = criticalCss(nodes, new Set(['flex', 'mt-0.5', 'sm:px-6']));
    expect(css).toBe(
      '@layer theme,base,utilities;@layer base{*,:before{box-sizing:border-box}html{line-height:1.5}}' +
        '@layer utilities{.flex{display:flex}.mt-0\\.5{margin-top:.125rem}.sm\\:px-6{x:1}@media (min-width:40rem){.sm\\:px-6{padding-inline:1.5rem}}}' +
        '@keyframes fade{from{opacity:0}to{opacity:1}}@property --tw-x{syntax:"*";inherits:false}',
    );
  });

  it('needs every class of a selector, and one selector of a list', () => {
    expect(criticalCss(nodes, new Set(['group-open:rotate-180']))).not.toContain('rotate:180deg');
    expect(criticalCss(nodes, new Set(['group', 'group-open:rotate-180']))).toContain('rotate:180deg');
    expect(criticalCss(nodes, new Set(['b']))).not.toContain('color:red');
    expect(criticalCss(nodes, new Set(['b', 'c']))).toContain('.a,.b .c{color:red}');
    expect(criticalCss(nodes, new Set(['hover:bg-white/10']))).toContain('.hover\\:bg-white\\/10:hover');
  });

  it('reads the classes of a page, entities decoded', () => {
    expect([...classesInHtml('<div class="flex  mt-0.5"><p class="[content:&#x27;x&#x27;]">')]).toEqual(['flex', 'mt-0.5', "[content:'x']"]);
  });

  it('inlines the CSS a built page uses in its head and leaves the stylesheet, unapplied, at the end of the body', () => {
    const html = readBuilt(built.outDir, 'about.html');
    const head = html.slice(0, html.indexOf('</head>'));
    const body = html.slice(html.indexOf('<body'));
    expect(head).toMatch(/<style>:root\{--site-origin:"[^"]*"\}@layer properties\{.*\.flex\{display:flex\}.*<\/style>/);
    expect(head).not.toContain('rel="stylesheet"');
    expect(head).not.toContain('.legal-prose');
    expect(body).toMatch(/<\/script><link rel="stylesheet" href="\/assets\/styles\.[0-9a-f]{10}\.css" media="not all" data-island-css=""\/><\/body><\/html>$/);
  });
});

describe('the print rules in the inlined CSS', () => {
  it('give every built page the site\'s URL and its print rules, which apply before the stylesheet does', () => {
    for (const file of ['privacy.html', 'de/datenschutz.html', 'index.html', 'fr/about.html']) {
      const style = /<style>([\s\S]*?)<\/style>/.exec(readBuilt(built.outDir, file))![1]!;
      expect(style.startsWith(siteOriginProperty('https://www.maskwise.io')), file).toBe(true);
      const print = style.slice(style.lastIndexOf('@media print{'));
      expect(print, file).toContain('main a[href^=\\/]:after{content:" (" var(--site-origin,"") attr(href) ")"');
      expect(print, file).toContain('main a[href^=http]:after{content:" (" attr(href) ")"');
      expect(print, file).toContain('body>header,body>footer,body>a[href=\\#main],[data-island]{display:none!important}');
      expect(print, file).toContain('h1,h2,h3,h4{break-after:avoid');
    }
  });

  it('write the site URL as a CSS string that cannot end the string or the style element', () => {
    expect(siteOriginProperty('https://www.maskwise.io')).toBe(':root{--site-origin:"https://www.maskwise.io"}');
    expect(siteOriginProperty('https://x.example/"}</style><script>')).toBe(':root{--site-origin:"https://x.example/\\22 }\\3c /style>\\3c script>"}');
  });
});

describe('critical CSS of arbitrary values', () => {
  it('regression: keeps a class whose escaped name holds commas and parentheses', () => {
    const css = '.bg-\\[radial-gradient\\(at_top\\,rgba\\(1\\,2\\,3\\,0\\.2\\)\\,transparent\\)\\]{background-image:radial-gradient(at top,rgba(1,2,3,.2),transparent)}';
    expect(criticalCss(parseCss(css), new Set(['bg-[radial-gradient(at_top,rgba(1,2,3,0.2),transparent)]']))).toBe(css);
  });
});

describe('registered custom properties', () => {
  it('become Tailwind\'s unconditional fallback in the inlined CSS', () => {
    const css = '@layer properties{@supports (((-webkit-hyphens:none)) and (not (margin-trim:block))){*,:before{--tw-shadow:0 0 #0000}}}@layer utilities{.shadow{box-shadow:var(--tw-shadow)}}@property --tw-shadow{syntax:"*";inherits:false;initial-value:0 0 #0000}';
    const plain = criticalCss(plainCustomProperties(parseCss(css)), new Set(['shadow']));
    expect(plain).toBe('@layer properties{*,:before{--tw-shadow:0 0 #0000}}@layer utilities{.shadow{box-shadow:var(--tw-shadow)}}');
  });
});
