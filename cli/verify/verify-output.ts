import { scanTags, type HtmlTag } from './html-scan.ts';
import { resolveUrl } from '../site/resolve-url.ts';
import { validateAlternates } from './alternates.ts';
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
/** Paths served by the ingest service behind the same origin, not by files. */
const SERVICE_PREFIX = '/api/';
/** The base used to resolve references; its origin stands for "this site". */
const LOCAL_ORIGIN = 'http://sitegen.invalid';

/** The URLs a tag refers to, as written. */
function referencesOf(tag: HtmlTag): string[] {
  const refs: string[] = [];
  if (!(tag.name in REFERENCE_ATTRIBUTES) && tag.name !== 'meta' && !tag.raw.includes('data-island-src')) return refs;
  for (const attr of REFERENCE_ATTRIBUTES[tag.name] ?? []) {
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

/**
 * Checks the built site the way a crawler and a visitor meet it, and returns one line per
 * problem (`file: what is wrong`), empty when all is well: every internal link, image, script
 * and stylesheet reference resolves to a file (and its `#fragment` to an element), no `id` is
 * used twice in a page, and — through `validateAlternates` — canonical, hreflang and sitemap agree.
 *
 * @example validateOutput({ siteUrl, documents, sitemap, exists })
 * // ['de/about.html: link /de/abut resolves to nothing (404)', 'index.html: id "newsletter" is used 2 times']
 */
export function validateOutput(output: BuiltOutput): Problem[] {
  const problems: Problem[] = [];
  const tagsByFile = new Map(output.documents.map((d) => [d.file, scanTags(d.html)]));
  const idsByFile = new Map([...tagsByFile].map(([file, tags]) => [file, idsOf(tags)]));

  for (const document of output.documents) {
    const tags = tagsByFile.get(document.file)!;
    const ids = idsByFile.get(document.file)!;
    for (const [id, count] of ids) {
      if (count > 1) problems.push({ code: 'output_id_duplicate', file: document.file, message: `id "${id}" is used ${count} times; ids must be unique in a page` });
    }
    const reported = new Set<string>();
    const report = (code: SitegenErrorCode, message: string) => {
      if (!reported.has(message)) problems.push({ code, file: document.file, message });
      reported.add(message);
    };
    for (const reference of tags.flatMap(referencesOf)) {
      const url = internalUrl(reference, document.path, output.siteUrl);
      if (!url || url.pathname.startsWith(SERVICE_PREFIX) || output.unbuiltPages?.has(url.pathname)) continue;
      const fragment = safeDecode(url.hash.slice(1));
      let targetFile = document.file;
      if (!reference.startsWith('#')) {
        const resolution = resolveUrl(url.pathname, output.exists);
        if (resolution.type === 'notFound') {
          report('output_link_broken', `${reference} resolves to nothing (404)`);
          continue;
        }
        if (resolution.type === 'redirect') {
          report('output_link_redirects', `${reference} redirects to ${resolution.location}; link the canonical URL`);
          continue;
        }
        targetFile = resolution.file;
      }
      const targetIds = idsByFile.get(targetFile);
      if (fragment && targetIds && !targetIds.has(fragment)) report('output_fragment_missing', `${reference} points to no element with id "${fragment}" in ${targetFile}`);
    }
  }
  problems.push(...validateAlternates(output, tagsByFile));
  return problems;
}
