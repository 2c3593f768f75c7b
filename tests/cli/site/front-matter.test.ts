/**
 * The front matter of a page added as Markdown is split by `cli/site/markdown/front-matter.ts`
 * instead of gray-matter, for speed. Held equal to gray-matter here, on the shipped pages and on
 * the edge cases a content maintainer can write: the same values, the same body (so the same
 * HTML), and the same line numbers in problems.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import matter from 'gray-matter';
import { describe, expect, it } from 'vitest';
import { splitFrontMatter } from '../../../cli/site/markdown/front-matter.ts';
import { LANGUAGES } from '../../../cli/site/languages.ts';

/** What gray-matter makes of `source`, with the body line counted as the build counted it. */
function grayMatter(source: string) {
  const parsed = matter(source, {});
  return { data: parsed.data as unknown, body: parsed.content, bodyLine: source.split('\n').length - parsed.content.split('\n').length + 1 };
}

const split = (source: string) => {
  const { data, body, bodyLine } = splitFrontMatter(source);
  return { data, body, bodyLine };
};

describe('splitFrontMatter', () => {
  const shipped = LANGUAGES.flatMap((lang) =>
    readdirSync(join('content/pages', lang))
      .map((name) => readFileSync(join('content/pages', lang, name), 'utf8').replace(/\r\n/g, '\n'))
      .filter((source) => source.startsWith('---\n')),
  );

  it('reads every shipped page with front matter as gray-matter does', () => {
    expect(shipped.length).toBeGreaterThanOrEqual(LANGUAGES.length);
    for (const source of shipped) expect(split(source)).toEqual(grayMatter(source));
  });

  it.each([
    ['an ordinary page', '---\ntitle: Hi\ndescription: D\nslug: hi\n---\n# Body\n\nText.\n'],
    ['blank lines before the body', '---\ntitle: Hi\n---\n\n\n# Body\n'],
    ['a body right after the delimiter, no line break', '---\ntitle: Hi\n---'],
    ['text after the closing dashes', '---\ntitle: Hi\n----- and more\nbody\n'],
    ['no closing delimiter', '---\ntitle: Hi\nslug: x\n'],
    ['empty front matter', '---\n---\nbody\n'],
    ['comments only', '---\n# a comment\n   # another\n---\nbody\n'],
    ['comments beside values', '---\n# about\ntitle: Hi # not a comment in YAML? it is\nnavOrder: 2\n---\nbody'],
    ['YAML 1.1 booleans and numbers', '---\nnav: no\nnavOrder: 010\ntitle: "yes"\n---\nx\n'],
    ['a value that is not a mapping', '---\njust a string\n---\nbody\n'],
    ['a Windows line break left after the delimiter', '---\ntitle: Hi\n---\r\nbody\n'],
    ['dashes inside a value', '---\ntitle: a---b\ndescription: |\n  ---\n  x\n---\nbody\n'],
  ])('splits %s as gray-matter does', (_name, source) => {
    expect(split(source)).toEqual(grayMatter(source));
  });

  it('throws js-yaml\'s error, with the line it found, for front matter that is not YAML', () => {
    const source = '---\ntitle: Hi\nslug: [unclosed\n---\nbody\n';
    const ours = (() => { try { splitFrontMatter(source); } catch (error) { return error as { message: string; mark?: { line: number } }; } })();
    const theirs = (() => { try { matter(source, {}); } catch (error) { return error as { message: string; mark?: { line: number } }; } })();
    expect(ours?.message).toBe(theirs?.message);
    expect(ours?.mark?.line).toBe(theirs?.mark?.line);
  });

  it('gives the front matter\'s lines, the opening delimiter first', () => {
    expect(splitFrontMatter('---\ntitle: Hi\nslug: x\n---\nbody\n').frontLines).toEqual(['---', 'title: Hi', 'slug: x']);
  });
});
