import type { Problem } from '../site/errors.ts';

/** A Markdown image whose text alternative (between the brackets) is empty: `![](chart.png)`. */
const EMPTY_ALT_IMAGE = /!\[\s*\]\(/;
/** An HTML `<img>` written in the Markdown without an `alt` attribute. */
const IMG_WITHOUT_ALT = /<img\b(?![^>]*\balt\s*=)[^>]*>/i;

/**
 * Checks what a screen reader and a search engine read of a Markdown text, at the line it is
 * written: every image has a text alternative (`seo_image_alt`: Markdown writes `![](…)` as
 * `alt=""`, which says "decorative", so an empty one is reported too), and no heading skips a
 * level (`seo_heading_skipped`). `titleLevel` is 1 when the page's `<h1>` comes from outside the
 * text (a front matter `title:`), 0 when the text writes its own `# ` title. Lines in fenced code
 * do not count. The build checks the same on the pages it writes (cli/verify/seo.ts).
 */
export function outlineProblems(file: string, source: string, titleLevel: 0 | 1): Problem[] {
  const problems: Problem[] = [];
  let level: number = titleLevel;
  let fenced = false;
  source.split('\n').forEach((text, index) => {
    const line = index + 1;
    if (/^(```|~~~)/.test(text)) fenced = !fenced;
    if (fenced) return;
    const heading = text.match(/^(#{1,6})\s/)?.[1]?.length;
    if (heading) {
      if (heading > level + 1) {
        const expected = '#'.repeat(level + 1);
        problems.push({ code: 'seo_heading_skipped', file, line, message: `a "${'#'.repeat(heading)} " heading follows ${level === 0 ? 'no heading' : `a level-${level} heading`}; write "${expected} " (a heading level is never skipped)` });
      }
      level = heading;
    }
    if (EMPTY_ALT_IMAGE.test(text)) problems.push({ code: 'seo_image_alt', file, line, message: 'an image has no text alternative: describe it between the brackets, ![what it shows](…)' });
    if (IMG_WITHOUT_ALT.test(text)) problems.push({ code: 'seo_image_alt', file, line, message: 'an <img> has no alt attribute; describe it, or write alt="" for a decorative one' });
  });
  return problems;
}
