/**
 * Critical CSS: the rules of the site stylesheet that one page's markup uses, to inline in its
 * head so the first render needs no other request. The whole stylesheet still loads, after the
 * content, for the states scripts add later (open menus, toasts, error messages).
 */

/** A parsed stylesheet: at-rules with their children, style rules with their classes. */
export type CssNode =
  | { kind: 'raw'; text: string }
  | { kind: 'block'; prelude: string; children: CssNode[] }
  | { kind: 'rule'; text: string; classes: string[][] };

/** At-rules whose block holds rules (filtered inside); the others are kept whole. */
const NESTING_AT_RULES = /^@(media|supports|layer|container|scope|starting-style)\b/i;

// The scans below jump from one character that matters to the next with a regular expression
// rather than stepping through every character: a build parses the 44 KB stylesheet once, in
// code that has not warmed up, where a loop over each character cost 5–10 ms.

/** The characters `blockEnd` stops at. */
const BLOCK_MARKS = /[\\"'{}]/g;

/** Index of the `}` closing the block opened just before `from`, skipping strings and escapes. */
function blockEnd(css: string, from: number): number {
  let depth = 1;
  BLOCK_MARKS.lastIndex = from;
  for (let mark = BLOCK_MARKS.exec(css); mark !== null; mark = BLOCK_MARKS.exec(css)) {
    const c = mark[0];
    const i = mark.index;
    if (c === '\\') BLOCK_MARKS.lastIndex = i + 2;
    else if (c === '"' || c === "'") {
      const close = css.indexOf(c, i + 1);
      if (close < 0) break;
      BLOCK_MARKS.lastIndex = close + 1;
    } else if (c === '{') depth++;
    else if (--depth === 0) return i;
  }
  return css.length;
}

/** The characters `splitSelectorList` stops at. */
const SELECTOR_MARKS = /[\\(),]/g;

/** Splits a selector list at its top-level commas (not escaped, not inside `:is(…)` and the like). */
function splitSelectorList(list: string): string[] {
  const selectors: string[] = [];
  let depth = 0;
  let start = 0;
  SELECTOR_MARKS.lastIndex = 0;
  for (let mark = SELECTOR_MARKS.exec(list); mark !== null; mark = SELECTOR_MARKS.exec(list)) {
    const c = mark[0];
    const i = mark.index;
    if (c === '\\') SELECTOR_MARKS.lastIndex = i + 2;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (depth === 0) {
      selectors.push(list.slice(start, i));
      start = i + 1;
    }
  }
  return [...selectors, list.slice(start)];
}

/** The class names a selector list needs, one list per selector: `.a:hover, .b .c` → [['a'], ['b', 'c']]. */
function selectorClasses(selectorList: string): string[][] {
  return splitSelectorList(selectorList).map((selector) =>
    [...selector.matchAll(/\.((?:\\[0-9a-fA-F]{1,6}\s?|\\.|[\w-])+)/g)].map((m) =>
      m[1]!.replace(/\\([0-9a-fA-F]{1,6})\s?|\\(.)/g, (_all, hex: string | undefined, char: string | undefined) => (hex ? String.fromCodePoint(parseInt(hex, 16)) : char!)),
    ),
  );
}

/** Parses (minified or not) CSS into the nodes `criticalCss` filters. Comments are dropped. */
export function parseCss(css: string): CssNode[] {
  const source = css.replace(/\/\*[\s\S]*?\*\//g, '');
  const nodes: CssNode[] = [];
  let i = 0;
  while (i < source.length) {
    const open = source.indexOf('{', i);
    const semicolon = source.indexOf(';', i);
    if (semicolon >= 0 && (open < 0 || semicolon < open)) {
      const text = source.slice(i, semicolon + 1).trim();
      if (text !== ';') nodes.push({ kind: 'raw', text });
      i = semicolon + 1;
      continue;
    }
    if (open < 0) break;
    const prelude = source.slice(i, open).trim();
    const close = blockEnd(source, open + 1);
    const body = source.slice(open + 1, close);
    if (NESTING_AT_RULES.test(prelude)) nodes.push({ kind: 'block', prelude, children: parseCss(body) });
    else if (prelude.startsWith('@')) nodes.push({ kind: 'raw', text: `${prelude}{${body}}` });
    else nodes.push({ kind: 'rule', text: `${prelude}{${body}}`, classes: selectorClasses(prelude) });
    i = close + 1;
  }
  return nodes;
}

/**
 * The CSS of the rules that apply to markup using `classes`: a style rule stays when one of its
 * selectors needs only classes from the set (rules without classes, such as the reset and the
 * theme variables, always stay); at-rules stay around the rules they still hold.
 *
 * @example criticalCss(parseCss('.a{color:red}.b{color:blue}@media (min-width:40rem){.a{margin:0}}'), new Set(['a']))
 * // '.a{color:red}@media (min-width:40rem){.a{margin:0}}'
 */
export function criticalCss(nodes: readonly CssNode[], classes: ReadonlySet<string>): string {
  let out = '';
  for (const node of nodes) {
    if (node.kind === 'raw') out += node.text;
    else if (node.kind === 'rule') {
      if (node.classes.some((needed) => needed.every((c) => classes.has(c)))) out += node.text;
    } else {
      const inner = criticalCss(node.children, classes);
      // `@layer a, b;` order statements are raw nodes; an emptied block is dropped.
      if (inner) out += `${node.prelude}{${inner}}`;
    }
  }
  return out;
}

/**
 * Replaces Tailwind's registered custom properties (`@property --tw-…`) by the plain fallback
 * Tailwind ships for browsers without `@property`: the `@layer properties` block that sets every
 * `--tw-*` initial value on all elements, made unconditional. Pages render the same (checked by
 * tests/e2e/critical-css.spec.ts), and the inline CSS uses only what HTML validators know (the Nu
 * checker reports `@property` and the `margin-trim` feature test as errors).
 *
 * @example plainCustomProperties(parseCss('@layer properties{@supports (x:y){*{--tw-a:0}}}@property --tw-a{syntax:"*"}'))
 * // → the nodes of '@layer properties{*{--tw-a:0}}'
 */
export function plainCustomProperties(nodes: readonly CssNode[], inPropertiesLayer = false): CssNode[] {
  return nodes.flatMap((node): CssNode[] => {
    if (node.kind === 'raw') return /^@property\b/i.test(node.text) ? [] : [node];
    if (node.kind === 'rule') return [node];
    if (inPropertiesLayer && /^@supports\b/i.test(node.prelude)) return plainCustomProperties(node.children, true);
    return [{ ...node, children: plainCustomProperties(node.children, inPropertiesLayer || /^@layer\s+properties$/i.test(node.prelude)) }];
  });
}

/** Every class name used in a document's `class` attributes. */
export function classesInHtml(html: string): Set<string> {
  const classes = new Set<string>();
  // Most class attributes repeat (every link of a menu, every row of a table): each is split once.
  const seen = new Set<string>();
  for (const match of html.matchAll(/\sclass="([^"]*)"/g)) {
    const value = match[1]!;
    if (seen.has(value)) continue;
    seen.add(value);
    for (const name of value.split(/\s+/)) {
      if (name) classes.add(name.includes('&') ? name.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#x27;/g, "'") : name);
    }
  }
  return classes;
}

/**
 * The rule that gives a page the site's URL as `--site-origin`, which the print stylesheet writes
 * before the target of a link within the site (templates/styles.css, `@media print`); inlined
 * with the critical CSS, since a page applies the full stylesheet only once an island hydrates.
 *
 * @example siteOriginProperty('https://www.maskwise.io') // ':root{--site-origin:"https://www.maskwise.io"}'
 */
export function siteOriginProperty(siteUrl: string): string {
  // A CSS string: quotes, backslashes, line breaks and `<` (no `</style>`) as escapes.
  return `:root{--site-origin:"${siteUrl.replace(/["\\<\n\r]/g, (c) => `\\${c.codePointAt(0)!.toString(16)} `)}"}`;
}
