import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pageTemplateFiles } from '../../../cli/dev/page-templates.ts';
import { PROJECT_ROOT } from '../../../cli/paths.ts';

describe("sitegen dev's table of page templates", () => {
  it('lists every template the render stage imports, so an edit to it re-renders the pages using it', () => {
    const source = readFileSync(join(PROJECT_ROOT, 'cli', 'pipeline', 'render-page.tsx'), 'utf8');
    const imported = [...source.matchAll(/from '\.\.\/\.\.\/templates\/([^']+)'/g)].map((m) => m[1]);
    expect(imported.length).toBeGreaterThan(0);
    for (const file of imported) expect(pageTemplateFiles(), `${file} is imported by render-page.tsx`).toContain(file);
  });
});
