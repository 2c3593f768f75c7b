import { describe, expect, it } from 'vitest';
import { type JsonLdGraph, type PageFacts, structuredData } from '../../../../cli/pipeline/structured-data/graph.ts';
import { structuredDataProblems } from '../../../../cli/pipeline/structured-data/schemas.ts';
import { DEFAULT_PATHS } from '../../../../cli/paths.ts';
import { loadSiteConfig } from '../../../../cli/site/site-config.ts';

const site = loadSiteConfig(DEFAULT_PATHS.contentDir);
const SITE = site.siteUrl;

const aboutFacts: PageFacts = {
  site,
  lang: 'de',
  homeUrl: `${SITE}/de`,
  homeName: 'Startseite',
  siteDescription: 'Sensible Daten maskieren.',
  logoUrl: `${SITE}/icon-512.png`,
  url: `${SITE}/de/about`,
  indexed: true,
  title: 'Über uns – MaskWise',
  description: 'Wer wir sind.',
  breadcrumbName: 'Über uns',
};
const homeFacts: PageFacts = { ...aboutFacts, url: `${SITE}/de`, title: 'MaskWise – Datenbankmaskierung', breadcrumbName: null };

/** The problems of the about page's graph after `change` (which edits it in place). */
function problemsAfter(change: (graph: JsonLdGraph) => void, facts = aboutFacts, home = false): string[] {
  const graph = structuredClone(structuredData(facts));
  change(graph);
  return structuredDataProblems(graph, SITE, { lang: 'de', home }, 'de/about.html').map((p) => {
    expect(p).toMatchObject({ code: 'structured_data_invalid', file: 'de/about.html' });
    return p.message;
  });
}
const node = (graph: JsonLdGraph, type: string) => graph['@graph'].find((n) => n['@type'] === type)!;

describe('the build check of a page’s structured data', () => {
  it('accepts the graph of a home page and of an inner page', () => {
    expect(problemsAfter(() => {})).toEqual([]);
    expect(problemsAfter(() => {}, homeFacts, true)).toEqual([]);
  });

  it('refuses a node that lacks a property search engines need', () => {
    expect(problemsAfter((g) => delete node(g, 'WebSite').inLanguage)).toEqual(['JSON-LD @graph.1.inLanguage: Invalid option: expected one of "en"|"es"|"pt"|"fr"|"de"|"it"|"nl"']);
    expect(problemsAfter((g) => delete node(g, 'SoftwareApplication').operatingSystem, homeFacts, true)).toEqual([expect.stringMatching(/^JSON-LD @graph\.3\.operatingSystem: /)]);
  });

  it('refuses an empty text and an unfilled placeholder', () => {
    expect(problemsAfter((g) => (node(g, 'WebPage').name = '  '))).toEqual(['JSON-LD @graph.2.name: is empty']);
    expect(problemsAfter((g) => (node(g, 'WebPage').description = 'Über {{brand}}'))).toEqual(['JSON-LD @graph.2.description: holds an unfilled {{placeholder}}']);
  });

  it('refuses a price the content does not state, and a relative or foreign URL', () => {
    expect(problemsAfter((g) => (node(g, 'SoftwareApplication').offers = { '@type': 'Offer', price: '0' }), homeFacts, true)).toEqual([expect.stringMatching(/^JSON-LD @graph\.3: .*"offers"/)]);
    expect(problemsAfter((g) => (node(g, 'WebPage').url = '/de/about'))).toContain(`JSON-LD @graph.2.url: must be an absolute URL of ${SITE}`);
    expect(problemsAfter((g) => (node(g, 'Organization').url = 'https://example.com/'))).toEqual([`JSON-LD @graph.0.url: must be an absolute URL of ${SITE}`]);
  });

  it('refuses a breadcrumb trail out of order or missing a step’s URL', () => {
    const items = (g: JsonLdGraph) => node(g, 'BreadcrumbList').itemListElement as Record<string, unknown>[];
    expect(problemsAfter((g) => (items(g)[0]!.position = 2))).toEqual(['JSON-LD @graph.3: positions must count 1, 2, … in order']);
    expect(problemsAfter((g) => delete items(g)[0]!.item)).toEqual(['JSON-LD @graph.3: every step but the last needs its URL (item)']);
  });

  it('refuses a page whose nodes do not fit its kind, language or references', () => {
    expect(problemsAfter(() => {}, aboutFacts, true)).toEqual([
      'JSON-LD has 0 SoftwareApplication node(s); a home page needs 1',
      'JSON-LD has 1 BreadcrumbList node(s); a home page needs 0',
    ]);
    expect(problemsAfter((g) => (node(g, 'WebPage').isPartOf = { '@id': `${SITE}/fr#website` }))).toEqual([
      `JSON-LD WebPage refers to ${SITE}/fr#website, which no node of the page has as @id`,
      'JSON-LD WebPage isPartOf does not refer to the WebSite',
    ]);
    expect(problemsAfter((g) => (node(g, 'WebPage').inLanguage = 'fr'))).toEqual(['JSON-LD WebPage says inLanguage "fr" on a page in "de"']);
  });
});
