import { statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { knownReferences, moduleGraph, seedReferences } from '../../../cli/assets/module-graph.ts';
import { testFolder } from '../../helpers/test-folders.ts';

/** A folder with `a.ts` importing `b.ts`, and `c.ts` that nothing imports; the paths of the three. */
function modules() {
  const dir = testFolder('module-graph');
  const [a, b, c] = ['a.ts', 'b.ts', 'c.ts'].map((name) => join(dir, name)) as [string, string, string];
  writeFileSync(a, "import { b } from './b.ts';\nexport const a = b;\n");
  writeFileSync(b, 'export const b = 1;\n');
  writeFileSync(c, 'export const c = 2;\n');
  return { a, b, c };
}

/** What a record kept for `file`: its size and time now, and `references`. */
function kept(file: string, references: string[], racy = false) {
  const stat = statSync(file);
  return { size: stat.size, mtimeMs: stat.mtimeMs, racy, value: references };
}

describe('moduleGraph with the references a record kept', () => {
  it('takes a module\'s references from the record while its size and time are as recorded, and reads it again once it changed', () => {
    const { a, b, c } = modules();
    // A record that says a.ts imports c.ts: believed while a.ts is as recorded (it is not read).
    seedReferences(a, kept(a, ['./c.ts']));
    expect(moduleGraph([a])).toEqual([a, c].sort());
    // a.ts edited (another size and time): its references are read from the file.
    writeFileSync(a, "import { b } from './b.ts';\nexport const a = b + 1;\n");
    utimesSync(a, new Date(), new Date(Date.now() + 5_000));
    expect(moduleGraph([a])).toEqual([a, b].sort());
    expect(knownReferences().get(a)?.value).toEqual(['./b.ts']);
  });

  it('reads a module kept as racy (modified too close to the record) instead of believing the record', () => {
    const { a, b } = modules();
    seedReferences(a, kept(a, ['./c.ts'], true));
    expect(moduleGraph([a])).toEqual([a, b].sort());
  });
});
