/**
 * A scenario's verdict: its counts printed as a small table (what was counted, what must hold,
 * what was seen), then every count that broke its rule named in one failure. The table is printed
 * first, so a failing run still shows all of its figures.
 *
 * @example
 * verdict('PostgreSQL · 10 newsletter confirms', answers, [
 *   count('`confirmed` events', grew(before.events, after.events, 'confirmed'), exactly(1)),
 * ]);
 * // [concurrency] PostgreSQL · 10 newsletter confirms
 * //   answers                 10 × 200 {ok,status}       one shape, no 5xx   ok
 * //   `confirmed` events      1                          = 1                 ok
 */
import { expect } from 'vitest';
import type { Answer } from './burst.ts';

/** What a count must be. */
interface Rule {
  text: string;
  holds: (value: number) => boolean;
}

/** One line of the table. */
interface Line {
  what: string;
  seen: string;
  rule: string;
  holds: boolean;
}

/** Exactly `n`. */
export const exactly = (n: number): Rule => ({ text: `= ${n}`, holds: (value) => value === n });

/** At most `n`. */
export const atMost = (n: number): Rule => ({ text: `≤ ${n}`, holds: (value) => value <= n });

/** A count and its rule. */
export function count(what: string, value: number, rule: Rule): Line {
  return { what, seen: String(value), rule: rule.text, holds: rule.holds(value) };
}

/** A fact that must hold, with what was seen (for what a number alone does not say). */
export function fact(what: string, seen: string, rule: string, holds: boolean): Line {
  return { what, seen, rule, holds };
}

/**
 * An answer's shape: the status, where a redirect leads (its path), the error code of an error,
 * the keys of a success body. `{ok, status: 'confirmed'}` and `{ok, status: 'already_confirmed'}`
 * are one shape; a 409 and a 201 are two.
 */
function shapeOf(answer: Answer): string {
  if (answer.location !== undefined) return `${answer.status} → ${new URL(answer.location, 'http://x').pathname}`;
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return `${answer.status} ${answer.body.slice(0, 40)}`;
  }
  const error = (body as { error?: { code?: string } } | null)?.error?.code;
  if (error !== undefined) return `${answer.status} ${error}`;
  return `${answer.status} {${Object.keys(body ?? {}).sort().join(',')}}`;
}

/** The answers by shape: `10 × 201 {next,ok}`, or `1 × 201 {ok} + 9 × 422 captcha_failed`. */
function answersSeen(answers: readonly Answer[]): string {
  const shapes = new Map<string, number>();
  for (const answer of answers) shapes.set(shapeOf(answer), (shapes.get(shapeOf(answer)) ?? 0) + 1);
  return [...shapes].map(([shape, n]) => `${n} × ${shape}`).join(' + ');
}

/** The N answers of a burst are one shape (whatever each request did, the client cannot tell) and none is a 5xx. */
export function sameShape(answers: readonly Answer[], expected?: string, what = 'answers'): Line {
  const shapes = new Set(answers.map(shapeOf));
  const serverErrors = answers.filter((answer) => answer.status >= 500).length;
  const [only] = shapes;
  const holds = shapes.size === 1 && serverErrors === 0 && (expected === undefined || only === expected);
  return { what, seen: answersSeen(answers), rule: expected === undefined ? 'one shape, no 5xx' : `all ${expected}`, holds };
}

/** No answer is a 5xx (for bursts whose answers rightly differ, such as one captcha token posted N times). */
export function noServerError(answers: readonly Answer[]): Line {
  return { what: 'answers', seen: answersSeen(answers), rule: 'no 5xx', holds: answers.every((answer) => answer.status < 500) };
}

/** Prints the scenario's table and fails the test with every line that does not hold. */
export function verdict(title: string, lines: readonly Line[]): void {
  const width = (pick: (line: Line) => string) => Math.max(...lines.map((line) => pick(line).length));
  const [what, seen, rule] = [width((l) => l.what), width((l) => l.seen), width((l) => l.rule)];
  const rows = lines.map((line) => `  ${line.what.padEnd(what)}  ${line.seen.padEnd(seen)}  ${line.rule.padEnd(rule)}  ${line.holds ? 'ok' : 'FAILED'}`);
  process.stdout.write(`\n[concurrency] ${title}\n${rows.join('\n')}\n`);
  const broken = lines.filter((line) => !line.holds).map((line) => `${line.what}: ${line.seen} (must be ${line.rule})`);
  expect(broken, `${title}: counts that break the rule`).toEqual([]);
}
