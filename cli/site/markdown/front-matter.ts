/**
 * Splits a page file into its YAML front matter and the Markdown below it, as gray-matter does
 * for a file that starts with a `---` line (the only kind a content page may be), without its
 * per-file cost: gray-matter copies every text into a Buffer and resolves its options three
 * times, which was a third of loading 1,078 pages. Parsed with the same YAML parser (js-yaml 3,
 * `safeLoad`), so every front matter reads as it did; `tests/cli/site/front-matter.test.ts` holds
 * the two equal on the shipped pages and on the edge cases.
 *
 *   splitFrontMatter('---\ntitle: Hi\n---\n# Body\n') → { data: { title: 'Hi' }, body: '# Body\n', frontLines: ['---', 'title: Hi'], bodyLine: 4 }
 */
import yaml from 'js-yaml';

/** A page file split: the front matter's value (`{}` when it is empty), the Markdown below it, and the file's lines before the closing `---`. */
export interface SplitPage {
  data: unknown;
  body: string;
  /** The front matter's lines, the opening `---` first (line 1 of the file). */
  frontLines: readonly string[];
  /** The file line of the body's first line. */
  bodyLine: number;
}

/** The closing delimiter: a line that starts with `---`. */
const CLOSE = '\n---';

/**
 * Splits `source`, which starts with `---\n`: the front matter runs to the first line starting with
 * `---`; the body starts after that line's first four characters and one line break. Throws
 * js-yaml's error (with its `mark`) for front matter that is not valid YAML.
 */
export function splitFrontMatter(source: string): SplitPage {
  const { closeIndex, body } = cut(source);
  const matter = source.slice(3, 3 + closeIndex);
  const block = matter.replace(/^\s*#[^\n]+/gm, '').trim();
  const data: unknown = block === '' ? {} : yaml.safeLoad(matter);
  const frontLines = source.slice(0, 3 + closeIndex).split('\n');
  return { data, body, frontLines, bodyLine: countLines(source) - countLines(body) + 1 };
}

/** The Markdown below the front matter of `source` (which starts with `---\n`), as `splitFrontMatter` gives it, without parsing the YAML. */
export function bodyOf(source: string): string {
  return cut(source).body;
}

/** Where the front matter of `source` ends (its closing line's index after the opening `---`) and the body below it. */
function cut(source: string): { closeIndex: number; body: string } {
  const afterOpen = source.slice(3);
  let closeIndex = afterOpen.indexOf(CLOSE);
  if (closeIndex === -1) closeIndex = afterOpen.length;
  let body = closeIndex === afterOpen.length ? '' : afterOpen.slice(closeIndex + CLOSE.length);
  if (body.startsWith('\r')) body = body.slice(1);
  if (body.startsWith('\n')) body = body.slice(1);
  return { closeIndex, body };
}

/** How many lines `text` has, as `text.split('\n').length` counts them. */
function countLines(text: string): number {
  let lines = 1;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines += 1;
  return lines;
}
