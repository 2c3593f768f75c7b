/**
 * Schemas for the build cache's large records (the manifest's folders and pages, the build
 * record's file hashes), each checked in one plain pass instead of a zod schema per element: the
 * scaling site's manifest holds about 20,000 such values, and zod's element-by-element parse of
 * them, in a process that runs once and never warms up, was about a tenth of a one-string rebuild.
 *
 *   const folder = z.object({ paths: stringColumn, sizes: numberColumn });
 *   const pages = rowsByKey({ html: 'string', bytes: 'number', strings: 'index' });
 *   const built = rowList({ path: 'string', bytes: 'number' });
 */
import { z } from 'zod';

/**
 * The options to parse a record with: without zod's compiled fast path for objects, which a
 * record read once per process pays to compile (a `new Function` per object schema) and never
 * uses again.
 */
export const READ_ONCE = { jitless: true } as const;

/** The kinds of a row's field: a string, a finite number, or an index (an integer ≥ 0). */
type FieldKind = 'string' | 'number' | 'index';
type FieldValue<K extends FieldKind> = K extends 'string' ? string : number;

/** Whether `value` is of `kind`. */
function isKind(value: unknown, kind: FieldKind): boolean {
  if (kind === 'string') return typeof value === 'string';
  if (typeof value !== 'number' || !Number.isFinite(value)) return false;
  return kind === 'number' || (Number.isInteger(value) && value >= 0);
}

/** A column of strings: an array whose every entry is a string. */
export const stringColumn = z.custom<string[]>((value) => Array.isArray(value) && value.every((entry) => typeof entry === 'string'), 'expected an array of strings');

/** A column of numbers: an array whose every entry is a finite number. */
export const numberColumn = z.custom<number[]>((value) => Array.isArray(value) && value.every((entry) => isKind(entry, 'number')), 'expected an array of numbers');

/** A row with the fields `F` of their kinds. */
type Row<F extends Readonly<Record<string, FieldKind>>> = { -readonly [N in keyof F]: FieldValue<F[N]> };

/** Whether `row` is an object with exactly the fields `fields` of their kinds. */
function rowCheck(fields: Readonly<Record<string, FieldKind>>): (row: unknown) => boolean {
  const names = Object.keys(fields);
  return (row) =>
    typeof row === 'object' && row !== null && !Array.isArray(row) && Object.keys(row).length === names.length && names.every((name) => isKind((row as Record<string, unknown>)[name], fields[name]!));
}

/** An object of rows by key, each row an object with exactly the fields `fields` of their kinds. */
export function rowsByKey<F extends Readonly<Record<string, FieldKind>>>(fields: F) {
  const isRow = rowCheck(fields);
  return z.custom<Record<string, Row<F>>>(
    (value) => typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every(isRow),
    `expected rows of ${Object.keys(fields).join(', ')}`,
  );
}

/** An array of rows, each an object with exactly the fields `fields` of their kinds. */
export function rowList<F extends Readonly<Record<string, FieldKind>>>(fields: F) {
  const isRow = rowCheck(fields);
  return z.custom<Row<F>[]>((value) => Array.isArray(value) && value.every(isRow), `expected a list of rows of ${Object.keys(fields).join(', ')}`);
}
