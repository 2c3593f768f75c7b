import { describe, expect, it } from 'vitest';
import { builtSite, readBuilt, useBuiltSite } from '../../helpers/built-site.ts';

describe("sitegen dev's browser script", () => {
  const built = useBuiltSite();

  it('is never in a built page: only the dev server adds it to the pages it serves', async () => {
    const { result } = await builtSite();
    expect(result.pages.length).toBeGreaterThan(0);
    for (const page of result.pages) {
      expect(readBuilt(built.outDir, page.file), page.file).not.toMatch(/__sitegen|EventSource|sitegen-error-overlay/);
    }
  });
});
