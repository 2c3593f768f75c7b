import { readFileSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { SITEGEN_ERRORS, type Problem } from '../site/errors.ts';

/** A problem as the browser overlay shows it. */
export interface OverlayProblem {
  code: string;
  /** `content/locales/de.json:12`, relative to the project when inside it. */
  location: string;
  message: string;
  /** What to do, from the error catalogue. */
  hint: string;
  /** The offending line with up to two lines either side, numbered; empty when the file or line is unknown. */
  excerpt: { line: number; text: string; offending: boolean }[];
}

/** How many lines the excerpt shows before and after the offending one. */
const CONTEXT_LINES = 2;

/**
 * A problem with its location relative to `root` and the text of the lines around it, read from
 * the file as it is now.
 *
 * @example overlayProblem({ code: 'content_unreadable', file: '/repo/content/locales/de.json', line: 3, message: 'not valid JSON: …' }, '/repo')
 * // { code: 'content_unreadable', location: 'content/locales/de.json:3', message: 'not valid JSON: …', hint: 'Fix the syntax …',
 * //   excerpt: [{ line: 1, text: '{', offending: false }, …, { line: 3, text: '  "title": "Hallo,', offending: true }, …] }
 */
export function overlayProblem(problem: Problem, root: string, read: (file: string) => string = (file) => readFileSync(file, 'utf8')): OverlayProblem {
  const absolute = isAbsolute(problem.file) ? problem.file : resolve(root, problem.file);
  const inside = relative(root, absolute);
  const shown = inside.startsWith('..') || isAbsolute(inside) ? absolute : inside;
  let excerpt: OverlayProblem['excerpt'] = [];
  if (problem.line) {
    try {
      const lines = read(absolute).split('\n');
      const first = Math.max(1, problem.line - CONTEXT_LINES);
      const last = Math.min(lines.length, problem.line + CONTEXT_LINES);
      for (let line = first; line <= last; line++) excerpt.push({ line, text: lines[line - 1]!.replace(/\r$/, ''), offending: line === problem.line });
    } catch {
      excerpt = [];
    }
  }
  return {
    code: problem.code,
    location: `${shown}${problem.line ? `:${problem.line}` : ''}`,
    message: problem.message,
    hint: SITEGEN_ERRORS[problem.code].hint,
    excerpt,
  };
}
