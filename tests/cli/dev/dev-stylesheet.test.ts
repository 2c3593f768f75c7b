import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileCss } from '../../../cli/assets/css.ts';
import { DevStylesheet } from '../../../cli/dev/dev-stylesheet.ts';
import { DEFAULT_PATHS } from '../../../cli/paths.ts';

describe("sitegen dev's stylesheet", () => {
  it('starts as the build compiles it, and changes only when an edited template uses a class it lacks', async () => {
    const stylesheet = await DevStylesheet.create(DEFAULT_PATHS.cssEntry);
    expect(stylesheet.css).toBe(await compileCss(DEFAULT_PATHS.cssEntry));

    const template = join(mkdtempSync(join(tmpdir(), 'dev-css-')), 'Edited.tsx');
    writeFileSync(template, 'export const A = () => <p className="mt-4 text-slate-700">Only the words changed</p>;\n');
    expect(stylesheet.addClassesOf([template])).toBe(false);

    writeFileSync(template, 'export const A = () => <p className="mt-4 bg-fuchsia-300">A new class</p>;\n');
    expect(stylesheet.addClassesOf([template])).toBe(true);
    expect(stylesheet.css).toContain('.bg-fuchsia-300');
  });
});
