/**
 * A small tag scanner for the HTML the build writes: enough to read attributes (links, ids,
 * head metadata) without a DOM. It skips comments and the contents of `<script>` and `<style>`
 * (so JSON props or CSS never look like markup) but still reports those elements' own tags.
 */
import { createHash } from 'node:crypto';

/** One start tag: its lower-case name and its attributes (names lower-cased, values decoded). */
export interface HtmlTag {
  name: string;
  /** Its `id` attribute, if any (read without parsing the other attributes). */
  id: string | undefined;
  /** The attributes as written, for a quick look before parsing them. */
  raw: string;
  /** Every attribute, parsed on first use. */
  attrs: Readonly<Record<string, string>>;
}

const TAG = /<!--[\s\S]*?-->|<(script|style)\b([^>]*)>[\s\S]*?<\/\1\s*>|<([a-zA-Z][\w:-]*)(\s[^>]*)?>/gi;
const ID_ATTRIBUTE = /(?:^|\s)id\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/i;
const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

const NAMED_ENTITIES: Readonly<Record<string, string>> = { amp: '&', quot: '"', apos: "'", lt: '<', gt: '>', nbsp: '\u00a0' };

/**
 * Decodes the character references of an attribute value or text.
 *
 * @example decodeEntities('/a?x=1&amp;y=&#x27;2&#39;') // "/a?x=1&y='2'"
 */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return Number.isFinite(code) ? String.fromCodePoint(code) : whole;
    }
    const name = ref.toLowerCase();
    return Object.hasOwn(NAMED_ENTITIES, name) ? NAMED_ENTITIES[name]! : whole;
  });
}

function parseAttributes(source: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const match of source.matchAll(ATTRIBUTE)) {
    const name = match[1]!.toLowerCase();
    if (!Object.hasOwn(attrs, name)) attrs[name] = decodeEntities(match[2] ?? match[3] ?? match[4] ?? '');
  }
  return attrs;
}

class ScannedTag implements HtmlTag {
  readonly id: string | undefined;
  #attrs: Record<string, string> | undefined;
  constructor(
    readonly name: string,
    readonly raw: string,
  ) {
    const id = raw.includes('id') ? ID_ATTRIBUTE.exec(raw) : null;
    this.id = id ? decodeEntities(id[1] ?? id[2] ?? id[3] ?? '') : undefined;
  }
  // Most tags are only looked at for their id: the other attributes are parsed when asked for.
  get attrs(): Readonly<Record<string, string>> {
    return (this.#attrs ??= parseAttributes(this.raw));
  }
}

/**
 * Every start tag of a document, in order.
 *
 * @example scanTags('<a href="/de">x</a><script type="module">if (a<b) {}</script>')
 * // [{ name: 'a', attrs: { href: '/de' } }, { name: 'script', attrs: { type: 'module' } }]
 */
export function scanTags(html: string): HtmlTag[] {
  return scan(html, true).tags;
}

/**
 * The hash of what the output checks and the host configurations read in a page: every tag
 * (links, ids, head metadata) and every inline script and style, in order, without comments
 * and text. Two pages with the same skeleton pass or fail the same checks and need the same
 * Content-Security-Policy hashes: a page whose text changed but whose skeleton did not does
 * not make the build check the whole site again.
 */
export function skeletonHash(html: string): string {
  return scan(html, false).skeleton;
}

/** Every start tag of a page and its skeleton's hash (`skeletonHash`), in one pass: the output checks scan every page anyway. */
export function scanPage(html: string): { tags: HtmlTag[]; skeleton: string } {
  return scan(html, true);
}

/** One pass over the tags of `html`: each hashed into the skeleton, and kept as a tag unless `keepTags` is false. */
function scan(html: string, keepTags: boolean): { tags: HtmlTag[]; skeleton: string } {
  const tags: HtmlTag[] = [];
  const hash = createHash('sha256');
  for (const match of html.matchAll(TAG)) {
    if (match[0].startsWith('<!--')) continue;
    hash.update(match[0]).update('\0');
    if (keepTags) tags.push(new ScannedTag((match[1] ?? match[3])!.toLowerCase(), match[2] ?? match[4] ?? ''));
  }
  return { tags, skeleton: hash.digest('hex').slice(0, 32) };
}

/** The text inside each `<script>` element whose attributes match `filter` (inline scripts only). */
export function inlineScripts(html: string, filter: (attrs: Readonly<Record<string, string>>) => boolean = () => true): string[] {
  const scripts: string[] = [];
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const attrs = parseAttributes(match[1] ?? '');
    if (!('src' in attrs) && filter(attrs)) scripts.push(match[2]!);
  }
  return scripts;
}
