/**
 * The one reader of front matter in sitegen (build, check, status, translated, dev): splits a
 * page file into its YAML front matter and the Markdown below it, as gray-matter does for a file
 * that starts with a `---` line, and never runs what it reads. gray-matter's other engines
 * evaluate a `---js` (or `---javascript`, `---coffee`) block as code, so a page (a translation's
 * pull request) could run a program wherever sitegen reads it; here only YAML is read, with
 * js-yaml 3's safe schema (`safeLoad`: plain data, no `!!js/function` or `!!js/regexp`), and a
 * front matter that names another language is refused (`FrontMatterLanguageError`).
 * Without gray-matter's per-file cost too (it copies every text into a Buffer and resolves its
 * options three times, a third of loading 1,078 pages); `tests/cli/site/front-matter.test.ts`
 * holds the two equal on the shipped pages and on the edge cases.
 *
 *   splitFrontMatter('---\ntitle: Hi\n---\n# Body\n') → { data: { title: 'Hi' }, body: '# Body\n', frontLines: ['---', 'title: Hi'], bodyLine: 4 }
 *   splitFrontMatter('---js\n{ title: run() }\n---\n')  → throws FrontMatterLanguageError ('js')
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

/**
 * What a file's first line says about its front matter: none (it does not open with `---`), YAML
 * (`---`, `---yaml` or `---yml`: `length` is the opening's length before its line break), or
 * another language, which is never read.
 *
 * @example frontMatterOpening('---\ntitle: Hi\n---\n') // { kind: 'yaml', length: 3 }
 * @example frontMatterOpening('---js\n{}\n---\n')       // { kind: 'refused', language: 'js' }
 * @example frontMatterOpening('# Privacy\n')            // { kind: 'none' }
 */
export type FrontMatterOpening = { kind: 'none' } | { kind: 'yaml'; length: number } | { kind: 'refused'; language: string };

/** The names of YAML after an opening `---`, as gray-matter accepts them. */
const YAML_NAMES = new Set(['', 'yaml', 'yml']);

/** Reads the opening line of `source` (see `FrontMatterOpening`). */
export function frontMatterOpening(source: string): FrontMatterOpening {
  if (!source.startsWith('---') || source[3] === '-') return { kind: 'none' };
  const lineEnd = source.indexOf('\n');
  const rest = source.slice(3, lineEnd === -1 ? undefined : lineEnd);
  const language = rest.trim();
  return YAML_NAMES.has(language.toLowerCase()) ? { kind: 'yaml', length: 3 + rest.length } : { kind: 'refused', language };
}

/** Thrown for a front matter in a language other than YAML (`---js`): sitegen reads only YAML, and runs nothing. */
export class FrontMatterLanguageError extends Error {
  override name = 'FrontMatterLanguageError';

  constructor(readonly language: string) {
    super(`front matter opens with "---${language}", but only YAML front matter is read ("---" alone); sitegen never runs a page's front matter as code`);
  }
}

/** The closing delimiter: a line that starts with `---`. */
const CLOSE = '\n---';

/**
 * Splits `source`, which opens with a `---` line: the front matter runs to the next line starting
 * with `---`; the body starts after that line's first four characters and one line break. Throws
 * `FrontMatterLanguageError` for a front matter that is not YAML (`---js`), and js-yaml's error
 * (with its `mark`) for front matter that is not valid YAML.
 */
export function splitFrontMatter(source: string): SplitPage {
  const opening = yamlOpening(source);
  const { closeIndex, body } = cut(source, opening);
  const matter = source.slice(opening, opening + closeIndex);
  const block = matter.replace(/^\s*#[^\n]+/gm, '').trim();
  // The safe schema (js-yaml 3's default for safeLoad, named here so that no change of default
  // can widen it): strings, numbers, booleans, null, dates, lists and mappings, nothing that runs.
  const data: unknown = block === '' ? {} : yaml.safeLoad(matter, { schema: yaml.DEFAULT_SAFE_SCHEMA });
  const frontLines = source.slice(0, opening + closeIndex).split('\n');
  return { data, body, frontLines, bodyLine: countLines(source) - countLines(body) + 1 };
}

/** The Markdown below the front matter of `source` (which opens with a `---` line), as `splitFrontMatter` gives it, without parsing the YAML. */
export function bodyOf(source: string): string {
  return cut(source, yamlOpening(source)).body;
}

/** The length of the YAML opening of `source`; throws for another language. */
function yamlOpening(source: string): number {
  const opening = frontMatterOpening(source);
  if (opening.kind === 'refused') throw new FrontMatterLanguageError(opening.language);
  return opening.kind === 'yaml' ? opening.length : 3;
}

/** Where the front matter of `source` ends (its closing line's index after the opening) and the body below it. */
function cut(source: string, opening: number): { closeIndex: number; body: string } {
  const afterOpen = source.slice(opening);
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
