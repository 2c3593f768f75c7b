/**
 * Just enough Markdown reading for the docs test: a guide split into its headings, the code the
 * reader is meant to type (inline code and the lines of fenced blocks) and the prose around it.
 *
 *   parseDoc('docs/x.md', '# X\n\nRun `npm run build`.\n\n```sh\nnpm test\n```\n')
 *   → { headings: [{ level: 1, text: 'X', slug: 'x' }], codeSpans: ['npm run build'], fenceLines: ['npm test'], … }
 */

/** One heading: its level (1 for `#`), its text as written, and the anchor GitHub gives it. */
interface Heading {
  level: number;
  text: string;
  slug: string;
  line: number;
}

/** A guide, read. */
export interface Doc {
  path: string;
  text: string;
  headings: Heading[];
  /** The lines outside fenced code blocks. */
  proseLines: string[];
  /** The text of every inline code span outside fenced blocks. */
  codeSpans: string[];
  /** Every line inside a fenced code block. */
  fenceLines: string[];
  /** Every Markdown link target outside fenced blocks: `[text](target)`. */
  links: string[];
}

/**
 * The anchor GitHub makes of a heading: lower case, formatting and punctuation dropped, spaces
 * as dashes. `slugOf('The site\'s `URLs`')` → `'the-sites-urls'`.
 */
function slugOf(text: string): string {
  return text
    .replace(/`/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Reads the Markdown `text` of the file `path` (relative to the project). */
export function parseDoc(path: string, text: string): Doc {
  const headings: Heading[] = [];
  const proseLines: string[] = [];
  const fenceLines: string[] = [];
  const seen = new Map<string, number>();
  let fence: string | null = null;
  text.split('\n').forEach((line, index) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== null) {
      if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length) fence = null;
      else fenceLines.push(line);
      return;
    }
    if (marker !== undefined) {
      fence = marker;
      return;
    }
    proseLines.push(line);
    const heading = /^(#{1,6}) +(.+?) *#*$/.exec(line);
    if (heading) {
      const base = slugOf(heading[2]!);
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      headings.push({ level: heading[1]!.length, text: heading[2]!, slug: count === 0 ? base : `${base}-${count}`, line: index + 1 });
    }
  });
  const prose = proseLines.join('\n');
  const codeSpans = [...prose.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);
  // Links outside code spans: a `[text](target)` written inside backticks is an example, not a link.
  const links = [...prose.replace(/`[^`\n]+`/g, '').matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
  return { path, text, headings, proseLines, codeSpans, fenceLines, links };
}
