import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import jsonld from 'jsonld';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BuildResult } from '../../../../cli/pipeline/build-site.ts';
import { DEFAULT_PATHS } from '../../../../cli/paths.ts';
import { createTranslator } from '../../../../cli/site/i18n.ts';
import { loadAllMessages } from '../../../../cli/site/locales.ts';
import { isIndexed, pathFor } from '../../../../cli/site/routes.ts';
import { loadSiteConfig, placeholderValues } from '../../../../cli/site/site-config.ts';
import { decodeEntities } from '../../../../cli/verify/html-scan.ts';
import { builtSite, readBuilt } from '../../../helpers/built-site.ts';

// An independent check of what the build writes: every page's JSON-LD is expanded by the jsonld
// processor against the schema.org context (served offline from the fixtures), then each node is
// checked for the properties its type requires and for properties its type does not have.

const FIXTURES = join(import.meta.dirname, '../../../fixtures/schema-org');
const CONTEXT = JSON.parse(readFileSync(join(FIXTURES, 'context.jsonld'), 'utf8'));
const PROPERTIES: Record<string, { required: string[]; allowed: string[] }> = JSON.parse(readFileSync(join(FIXTURES, 'properties.json'), 'utf8'));
const SCHEMA = 'http://schema.org/';

const site = loadSiteConfig(DEFAULT_PATHS.contentDir);
const messages = loadAllMessages(DEFAULT_PATHS.contentDir);

/** Serves the schema.org context from the fixtures and refuses every other URL (no network). */
const documentLoader = async (url: string) => {
  if (url.replace(/\/$/, '') !== 'https://schema.org') throw new Error(`no document for ${url} offline`);
  return { contextUrl: undefined, documentUrl: url, document: CONTEXT };
};

/** A node of the flattened graph: `@id`, `@type` and properties keyed by full IRI. */
type FlatNode = { '@id': string; '@type'?: string[] } & Record<string, { '@value'?: unknown; '@id'?: string }[]>;

type BuiltPage = BuildResult['pages'][number];

/** The page's JSON-LD scripts, parsed. */
function jsonLdOf(html: string): unknown[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]!));
}

/** The text of the page's `<title>`. */
const titleOf = (html: string) => decodeEntities(html.match(/<title>([^<]*)<\/title>/)![1]!);
const short = (iri: string) => iri.slice(SCHEMA.length);
const valueOf = (node: FlatNode, property: string) => node[SCHEMA + property]?.[0];
const textOf = (node: FlatNode, property: string) => valueOf(node, property)?.['@value'];
const idOf = (node: FlatNode, property: string) => valueOf(node, property)?.['@id'];

let pages: BuiltPage[] = [];
let outDir = '';
/** Each page's flattened JSON-LD, by file. */
const graphs = new Map<string, FlatNode[]>();

beforeAll(async () => {
  const built = await builtSite();
  expect(built.result.errors).toEqual([]);
  outDir = built.outDir;
  pages = built.result.pages;
  for (const page of pages) {
    const scripts = jsonLdOf(readBuilt(outDir, page.file));
    expect(scripts, page.file).toHaveLength(1);
    const flat = (await jsonld.flatten(scripts[0] as jsonld.JsonLdDocument, undefined, { documentLoader })) as unknown as FlatNode[];
    graphs.set(page.file, flat);
  }
});

/** The nodes of a page of one type (short name: `WebPage`). */
const nodesOf = (file: string, type: string) => graphs.get(file)!.filter((n) => n['@type']?.includes(SCHEMA + type));

describe('structured data of every built page', () => {
  it('expands against schema.org into typed nodes with their required properties and no others', () => {
    expect(pages.length).toBeGreaterThan(100);
    for (const page of pages) {
      for (const node of graphs.get(page.file)!) {
        // A reference to an @id no node of the page has shows up as a node without a type.
        expect(node['@type'], `${page.file}: ${node['@id']} is referred to but not described`).toBeDefined();
        const type = short(node['@type']![0]!);
        const rules = PROPERTIES[type];
        expect(rules, `${page.file}: unexpected type ${type}`).toBeDefined();
        const properties = Object.keys(node).filter((k) => !k.startsWith('@')).map(short);
        for (const required of rules!.required) expect(properties, `${page.file}: ${type} lacks ${required}`).toContain(required);
        for (const property of properties) expect(rules!.allowed, `${page.file}: ${type} has no property ${property}`).toContain(property);
        for (const property of properties) {
          for (const value of node[SCHEMA + property]!) {
            if (typeof value['@value'] === 'string') expect(value['@value'].trim(), `${page.file}: ${type}.${property} is blank`).not.toBe('');
            if (typeof value['@value'] === 'string') expect(value['@value'], `${page.file}: ${type}.${property}`).not.toMatch(/\{\{|\}\}/);
          }
        }
      }
    }
  });

  it('describes one company under one @id on every page, which the site and page refer to', () => {
    const ids = new Set<string>();
    for (const page of pages) {
      const [organization, ...more] = nodesOf(page.file, 'Organization');
      expect(more, page.file).toEqual([]);
      ids.add(organization!['@id']);
      expect(textOf(organization!, 'name')).toBe(site.brand);
      expect(textOf(organization!, 'legalName')).toBe(site.company.legalName);
      const [website] = nodesOf(page.file, 'WebSite');
      expect(idOf(website!, 'publisher'), page.file).toBe(organization!['@id']);
    }
    expect([...ids]).toEqual([`${site.siteUrl}/#organization`]);
  });

  it("gives every page a WebPage in the page's language, part of that language's WebSite", () => {
    for (const page of pages) {
      const html = readBuilt(outDir, page.file);
      const [webPage, ...more] = nodesOf(page.file, 'WebPage');
      const [website] = nodesOf(page.file, 'WebSite');
      expect(more, page.file).toEqual([]);
      expect(html).toContain(`<html lang="${page.lang}"`);
      expect(textOf(webPage!, 'inLanguage'), page.file).toBe(page.lang);
      expect(textOf(website!, 'inLanguage'), page.file).toBe(page.lang);
      expect(idOf(website!, 'url')).toBe(site.siteUrl + pathFor('home', page.lang));
      expect(idOf(webPage!, 'isPartOf'), page.file).toBe(website!['@id']);
      expect(textOf(webPage!, 'name')).toBe(titleOf(html));
      // A page search engines may index names its canonical URL; the 404 and service pages, none.
      const canonical = html.match(/<link rel="canonical" href="([^"]*)"/)?.[1];
      expect(idOf(webPage!, 'url'), page.file).toBe(canonical);
    }
  });

  it('describes the product on each home page, in its language and without a price', () => {
    const homes = pages.filter((p) => p.page === 'home');
    expect(homes).toHaveLength(7);
    for (const page of homes) {
      const t = createTranslator(page.lang, messages, placeholderValues(site));
      const [application] = nodesOf(page.file, 'SoftwareApplication');
      expect(textOf(application!, 'name')).toBe(site.brand);
      expect(textOf(application!, 'description')).toBe(t('meta.home.description'));
      expect(textOf(application!, 'applicationCategory')).toBe(site.product.applicationCategory);
      expect(textOf(application!, 'operatingSystem')).toBe(site.product.operatingSystem);
      expect(valueOf(application!, 'offers')).toBeUndefined();
      expect(nodesOf(page.file, 'BreadcrumbList')).toEqual([]);
    }
  });

  it('gives every inner page a breadcrumb trail: the home page, then the page by its localised title', () => {
    for (const page of pages.filter((p) => p.page !== 'home')) {
      const t = createTranslator(page.lang, messages, placeholderValues(site));
      const [trail, ...more] = nodesOf(page.file, 'BreadcrumbList');
      expect(more, page.file).toEqual([]);
      expect(nodesOf(page.file, 'SoftwareApplication'), page.file).toEqual([]);
      const items = trail![SCHEMA + 'itemListElement']!.map((ref) => graphs.get(page.file)!.find((n) => n['@id'] === ref['@id'])!);
      expect(items.map((item) => textOf(item, 'position'))).toEqual([1, 2]);
      const [home, self] = items;
      expect(textOf(home!, 'name')).toBe(t('nav.home'));
      expect(idOf(home!, 'item')).toBe(site.siteUrl + pathFor('home', page.lang));
      const name = textOf(self!, 'name') as string;
      const title = titleOf(readBuilt(outDir, page.file));
      // The title is "<name> — <brand>" in the language's typography (– in German).
      expect(title, page.file).toMatch(new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} [—–] ${site.brand}$`));
      const indexed = page.page !== 'notFound' && isIndexed(page.page);
      expect(idOf(self!, 'item'), page.file).toBe(indexed ? site.siteUrl + (page.path === '/aviso-legal' ? pathFor('legalNotice', 'es') : page.path) : undefined);
    }
  });
});
