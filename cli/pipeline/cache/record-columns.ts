/**
 * Schemas for the build cache's large records (the manifest's folders and pages, the build
 * record's file hashes), each checked in one plain pass instead of a zod schema per element: the
 * scaling site's manifest holds about 20,000 such values, and zod's element-by-element parse of
 * them, in a process that runs once and never warms up, was about a tenth of a one-string rebuild.
 *
 *   const folder = z.object({ paths: stringColumn, sizes: numberColumn });
 *   const pages = rowsByKey({ html: 'string', bytes: 'number', strings: 'index' });
 */
import { z } from 'zod';

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

/** An object of rows by key, each row an object with exactly the fields `fields` of their kinds. */
export function rowsByKey<F extends Readonly<Record<string, FieldKind>>>(fields: F) {
  const names = Object.keys(fields);
  const kinds = names.map((name) => fields[name]!);
  // Plain loops: this runs for every field of every row (9,500 on the scaling site), never warmed up.
  const isRow = (row: unknown) => {
    if (typeof row !== 'object' || row === null || Array.isArray(row)) return false;
    let count = 0;
    for (const _ in row) count++;
    if (count !== names.length) return false;
    for (let i = 0; i < names.length; i++) if (!isKind((row as Record<string, unknown>)[names[i]!], kinds[i]!)) return false;
    return true;
  };
  return z.custom<Record<string, { -readonly [N in keyof F]: FieldValue<F[N]> }>>(
    (value) => typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every(isRow),
    `expected rows of ${names.join(', ')}`,
  );
}
