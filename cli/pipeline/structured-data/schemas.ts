import { z } from 'zod';
import type { Problem } from '../../site/errors.ts';
import { LANGUAGES, type Lang } from '../../site/languages.ts';
import type { JsonLdGraph } from './graph.ts';

/** A text a search engine shows: not blank, and no `{{placeholder}}` left unfilled. */
const text = z
  .string()
  .trim()
  .min(1, 'is empty')
  .refine((s) => !/\{\{|\}\}/.test(s), 'holds an unfilled {{placeholder}}');

/** The schemas of the node types a page's JSON-LD uses, for a site at `siteUrl`. */
function makeSchemas(siteUrl: string) {
  const siteUrlOf = z.url().refine((u) => u === siteUrl || u.startsWith(`${siteUrl}/`) || u.startsWith(`${siteUrl}#`), `must be an absolute URL of ${siteUrl}`);
  const id = siteUrlOf;
  const ref = z.object({ '@id': id }).strict();
  const lang = z.enum(LANGUAGES);
  const organization = z
    .object({
      '@type': z.literal('Organization'),
      '@id': id,
      name: text,
      legalName: text,
      url: siteUrlOf,
      logo: siteUrlOf,
      email: z.email(),
      telephone: text,
      taxID: text,
      address: z.object({ '@type': z.literal('PostalAddress'), streetAddress: text, addressLocality: text }).strict(),
      sameAs: z.array(z.url()).min(1),
    })
    .strict();
  const website = z
    .object({ '@type': z.literal('WebSite'), '@id': id, url: siteUrlOf, name: text, description: text, inLanguage: lang, publisher: ref })
    .strict();
  const webPage = z
    .object({
      '@type': z.literal('WebPage'),
      '@id': id,
      url: siteUrlOf.optional(),
      name: text,
      description: text,
      inLanguage: lang,
      isPartOf: ref,
      publisher: ref,
      breadcrumb: ref.optional(),
      mainEntity: ref.optional(),
    })
    .strict();
  // No `offers`: a price is stated only where the content states one, and the site states none.
  const softwareApplication = z
    .object({
      '@type': z.literal('SoftwareApplication'),
      '@id': id,
      name: text,
      applicationCategory: text,
      operatingSystem: text,
      description: text,
      url: siteUrlOf,
      inLanguage: lang,
      publisher: ref,
    })
    .strict();
  const listItem = z.object({ '@type': z.literal('ListItem'), position: z.int().positive(), name: text, item: siteUrlOf.optional() }).strict();
  const breadcrumbList = z
    .object({ '@type': z.literal('BreadcrumbList'), '@id': id, itemListElement: z.array(listItem).min(2, 'needs the home page and this page') })
    .strict()
    .refine((list) => list.itemListElement.every((item, i) => item.position === i + 1), 'positions must count 1, 2, … in order')
    .refine((list) => list.itemListElement.slice(0, -1).every((item) => item.item !== undefined), 'every step but the last needs its URL (item)');
  const node = z.discriminatedUnion('@type', [organization, website, webPage, softwareApplication, breadcrumbList]);
  return z.object({ '@context': z.literal('https://schema.org'), '@graph': z.array(node).min(1) }).strict();
}

const schemasBySite = new Map<string, ReturnType<typeof makeSchemas>>();

/** The schemas for `siteUrl`, made once per build rather than once per page. */
function schemasFor(siteUrl: string): ReturnType<typeof makeSchemas> {
  let schemas = schemasBySite.get(siteUrl);
  if (schemas === undefined) {
    schemas = makeSchemas(siteUrl);
    schemasBySite.set(siteUrl, schemas);
  }
  return schemas;
}

/** What a page's JSON-LD must describe: its language, and whether it is a home page. */
export interface ExpectedPage {
  lang: Lang;
  home: boolean;
}

/** The `@id`s a node refers to (`{ '@id': … }` values of its own properties). */
function referencesOf(node: Record<string, unknown>): string[] {
  return Object.values(node).flatMap((value) =>
    value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 1 && typeof (value as { '@id'?: unknown })['@id'] === 'string'
      ? [(value as { '@id': string })['@id']]
      : [],
  );
}

/**
 * Checks one page's JSON-LD before it is written, and returns a problem per fault (none when all
 * is well): each node matches its type's schema (required properties present, texts filled, URLs
 * absolute on the site, no unknown property such as an `offers` the content does not support);
 * the page has one `Organization`, one `WebSite` and one `WebPage` in its language, and a
 * `SoftwareApplication` if it is a home page or a `BreadcrumbList` if not; every `{ '@id' }`
 * reference leads to a node of the page.
 *
 * @example structuredDataProblems(graph, 'https://www.maskwise.io', { lang: 'de', home: false }, 'de/about.html')
 * // [{ code: 'structured_data_invalid', file: 'de/about.html', message: 'JSON-LD @graph.3.itemListElement: needs the home page and this page' }]
 */
export function structuredDataProblems(graph: JsonLdGraph, siteUrl: string, expected: ExpectedPage, file: string): Problem[] {
  const problem = (message: string): Problem => ({ code: 'structured_data_invalid', file, message: `JSON-LD ${message}` });
  const parsed = schemasFor(siteUrl).safeParse(graph);
  if (!parsed.success) return parsed.error.issues.map((issue) => problem(`${issue.path.join('.') || '(root)'}: ${issue.message}`));
  const nodes = parsed.data['@graph'];
  const problems: Problem[] = [];
  const count = (type: string) => nodes.filter((n) => n['@type'] === type).length;
  const wanted: Record<string, number> = {
    Organization: 1,
    WebSite: 1,
    WebPage: 1,
    SoftwareApplication: expected.home ? 1 : 0,
    BreadcrumbList: expected.home ? 0 : 1,
  };
  for (const [type, n] of Object.entries(wanted)) {
    if (count(type) !== n) problems.push(problem(`has ${count(type)} ${type} node(s); a ${expected.home ? 'home' : 'inner'} page needs ${n}`));
  }
  const ids = new Set(nodes.map((n) => n['@id']));
  for (const node of nodes) {
    for (const target of referencesOf(node)) {
      if (!ids.has(target)) problems.push(problem(`${node['@type']} refers to ${target}, which no node of the page has as @id`));
    }
    if ('inLanguage' in node && node.inLanguage !== expected.lang) problems.push(problem(`${node['@type']} says inLanguage "${node.inLanguage}" on a page in "${expected.lang}"`));
  }
  const webPage = nodes.find((n) => n['@type'] === 'WebPage');
  const website = nodes.find((n) => n['@type'] === 'WebSite');
  if (webPage && website && webPage.isPartOf['@id'] !== website['@id']) problems.push(problem('WebPage isPartOf does not refer to the WebSite'));
  return problems;
}
