import { scanPage, type HtmlTag } from './html-scan.ts';
import { resolveUrl } from '../site/resolve-url.ts';
import { validateAlternates } from './alternates.ts';
import { SEO_TAGS, validateSeo } from './seo.ts';
import type { BuiltOutput, OutputDocument } from './built-output.ts';
import type { Problem, SitegenErrorCode } from '../site/errors.ts';

/** Tag attributes that point at another resource of the site (or elsewhere). */
const REFERENCE_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  a: ['href'],
  area: ['href'],
  link: ['href'],
  img: ['src', 'srcset'],
  source: ['src', 'srcset'],
  script: ['src'],
  iframe: ['src'],
  video: ['src', 'poster'],
  audio: ['src'],
  form: ['action'],
};
/** `<meta>` values that are URLs of the site (social previews). */
const URL_METAS = new Set(['og:url', 'og:image', 'twitter:image']);
/** The tags `validateAlternates` reads: the page's language, canonical and hreflang links, robots meta. */
const HEAD_TAGS = new Set(['html', 'link', 'meta']);
/** Paths served by the ingest service behind the same origin, not by files. */
const SERVICE_PREFIX = '/api/';
/** The base used to resolve references; its origin stands for "this site". */
const LOCAL_ORIGIN = 'http://sitegen.invalid';

/** The URLs a tag refers to, as written. */
function referencesOf(tag: HtmlTag): string[] {
  const refs: string[] = [];
  // Own names only: a tag named `constructor` in the content is not a tag with links.
  const linking = Object.hasOwn(REFERENCE_ATTRIBUTES, tag.name);
  if (!linking && tag.name !== 'meta' && !tag.raw.includes('data-island-src')) return refs;
  for (const attr of linking ? REFERENCE_ATTRIBUTES[tag.name]! : []) {
    const value = tag.attrs[attr];
    if (value === undefined) continue;
    if (attr === 'srcset') refs.push(...value.split(',').map((candidate) => candidate.trim().split(/\s+/)[0] ?? '').filter(Boolean));
    else refs.push(value);
  }
  if (tag.attrs['data-island-src']) refs.push(tag.attrs['data-island-src']);
  if (tag.name === 'meta' && URL_METAS.has(tag.attrs.property ?? tag.attrs.name ?? '') && tag.attrs.content) refs.push(tag.attrs.content);
  return refs;
}

/** The site-internal URL of a reference (site URL made local), or null for other sites and schemes. */
function internalUrl(reference: string, documentPath: string, siteUrl: string): URL | null {
  const local = reference === siteUrl || reference.startsWith(`${siteUrl}/`) || reference.startsWith(`${siteUrl}#`)
    ? reference.slice(siteUrl.length) || '/'
    : reference;
  let url: URL;
  try {
    url = new URL(local, LOCAL_ORIGIN + documentPath);
  } catch {
    return null;
  }
  return url.origin === LOCAL_ORIGIN ? url : null;
}

/**
 * Where a reference leads: nowhere the checks look (another site, the form service, a page this
 * build left out), a problem, or a file of the site (none: the page itself) and a fragment in it.
 */
type LinkTarget = null | { code: SitegenErrorCode; message: string } | { file?: string; fragment: string };

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function idsOf(tags: readonly HtmlTag[]): Map<string, number> {
  const ids = new Map<string, number>();
  for (const tag of tags) {
    if (tag.id !== undefined) ids.set(tag.id, (ids.get(tag.id) ?? 0) + 1);
  }
  return ids;
}

/** Each page's `og:image` of the site: a PNG of the size its `og:image:width` and `og:image:height` state (a missing one is `output_link_broken`). */
function socialImageProblems(output: BuiltOutput, scans: ReadonlyMap<string, { headTags: readonly HtmlTag[] }>): Problem[] {
  const problems: Problem[] = [];
  const sizes = new Map<string, { width: number; height: number } | undefined>();
  for (const document of output.documents) {
    const metas = scans.get(document.file)!.headTags.filter((t) => t.name === 'meta');
    const meta = (property: string) => metas.find((t) => t.attrs.property === property)?.attrs.content;
    const image = meta('og:image');
    const url = image === undefined ? null : internalUrl(image, document.path, output.siteUrl);
    const file = url && safeDecode(url.pathname).slice(1);
    if (!file || !output.exists(file)) continue;
    if (!sizes.has(file)) sizes.set(file, output.imageSize!(file));
    const size = sizes.get(file);
    const stated = `${meta('og:image:width')}×${meta('og:image:height')}`;
    if (!size || `${size.width}×${size.height}` !== stated) {
      problems.push({ code: 'output_social_image', file: document.file, message: `og:image ${image} is ${size ? `${size.width}×${size.height}` : 'not a PNG'}, but the page states ${stated}` });
    }
  }
  return problems;
}

/**
 * Checks the built site the way a crawler and a visitor meet it, and returns one line per
 * problem (`file: what is wrong`), empty when all is well: every internal link, image, script
 * and stylesheet reference resolves to a file (and its `#fragment` to an element), no `id` is
 * used twice in a page, through `validateAlternates` canonical, hreflang and sitemap agree, and
 * through `validateSeo` titles, descriptions, images and headings are as search results need.
 *
 * `skeletons`, when given, receives each page's skeleton hash (`skeletonHash`), which the scan
 * finds on its way: the build cache keys the checks by them.
 *
 * @example validateOutput({ siteUrl, documents, sitemap, exists })
 * // ['de/about.html: link /de/abut resolves to nothing (404)', 'index.html: id "newsletter" is used 2 times']
 */
export function validateOutput(output: BuiltOutput, skeletons?: Map<string, string>): Problem[] {
  const problems: Problem[] = [];
  // Each page is scanned once, and only what the checks below need of it is kept (a thousand
  // pages hold hundreds of thousands of tags).
  const scans = new Map(
    output.documents.map((d) => {
      const { tags, skeleton } = scanPage(d.html);
      skeletons?.set(d.file, skeleton);
      return [d.file, { ids: idsOf(tags), references: tags.flatMap(referencesOf), headTags: tags.filter((t) => HEAD_TAGS.has(t.name)), seoTags: tags.filter((t) => SEO_TAGS.has(t.name)) }];
    }),
  );
  const idsByFile = new Map([...scans].map(([file, scan]) => [file, scan.ids]));
  const resolved = new Map<string, LinkTarget>();
  /** Where `reference`, on the page at `documentPath`, leads. */
  const targetOf = (reference: string, documentPath: string): LinkTarget => {
    const url = internalUrl(reference, documentPath, output.siteUrl);
    if (!url || url.pathname.startsWith(SERVICE_PREFIX) || output.unbuiltPages?.has(url.pathname)) return null;
    const fragment = safeDecode(url.hash.slice(1));
    if (reference.startsWith('#')) return { fragment };
    const resolution = resolveUrl(url.pathname, output.exists);
    if (resolution.type === 'notFound') return { code: 'output_link_broken', message: `${reference} resolves to nothing (404)` };
    if (resolution.type === 'redirect') return { code: 'output_link_redirects', message: `${reference} redirects to ${resolution.location}; link the canonical URL` };
    return { file: resolution.file, fragment };
  };

  for (const document of output.documents) {
    const { ids, references } = scans.get(document.file)!;
    for (const [id, count] of ids) {
      if (count > 1) problems.push({ code: 'output_id_duplicate', file: document.file, message: `id "${id}" is used ${count} times; ids must be unique in a page` });
    }
    const reported = new Set<string>();
    const report = (code: SitegenErrorCode, message: string) => {
      if (!reported.has(message)) problems.push({ code, file: document.file, message });
      reported.add(message);
    };
    for (const reference of references) {
      // A root-relative or absolute reference leads to the same place from every page (the
      // header's and footer's links are on all of them): it is resolved once.
      const samePlaceEverywhere = /^(\/|[a-z][a-z\d+.-]*:)/i.test(reference);
      let target = samePlaceEverywhere ? resolved.get(reference) : undefined;
      if (target === undefined) {
        target = targetOf(reference, document.path);
        if (samePlaceEverywhere) resolved.set(reference, target);
      }
      if (target === null) continue;
      if ('code' in target) {
        report(target.code, target.message);
        continue;
      }
      const targetFile = target.file ?? document.file;
      const targetIds = idsByFile.get(targetFile);
      if (target.fragment && targetIds && !targetIds.has(target.fragment)) report('output_fragment_missing', `${reference} points to no element with id "${target.fragment}" in ${targetFile}`);
    }
  }
  if (output.imageSize) problems.push(...socialImageProblems(output, scans));
  problems.push(...validateAlternates(output, new Map([...scans].map(([file, scan]) => [file, scan.headTags]))));
  problems.push(...validateSeo(output.documents.map((document) => ({ document, tags: scans.get(document.file)!.seoTags }))));
  return problems;
}
