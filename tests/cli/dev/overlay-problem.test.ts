import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContent } from '../../../cli/pipeline/load-content.ts';
import { overlayProblem } from '../../../cli/dev/overlay-problem.ts';
import { templateProblem } from '../../../cli/dev/template-loader.ts';
import { withDevClient } from '../../../cli/dev/dev-server.ts';
import { DEFAULT_PATHS } from '../../../cli/paths.ts';

describe('the overlay shows a problem with file:line, message and the offending text', () => {
  it('a JSON syntax error in a language file: the line of the error and the lines around it', () => {
    const contentDir = mkdtempSync(join(tmpdir(), 'dev-overlay-'));
    cpSync(DEFAULT_PATHS.contentDir, contentDir, { recursive: true });
    const file = join(contentDir, 'locales', 'de.json');
    const lines = readFileSync(file, 'utf8').split('\n');
    const broken = lines.findIndex((line) => /^\s+"[^"]+": "[^"]+",$/.test(line));
    lines[broken] = lines[broken]!.replace(/",$/, ',');
    writeFileSync(file, lines.join('\n'));

    const loaded = loadContent(contentDir, ['en', 'de']);
    expect(loaded.ok).toBe(false);
    const [problem] = loaded.ok ? [] : loaded.problems;
    const shown = overlayProblem(problem!, contentDir);
    expect(shown.code).toBe('content_unreadable');
    // The parser notices the missing quote at the end of the line or on the next one.
    expect([`locales/de.json:${broken + 1}`, `locales/de.json:${broken + 2}`]).toContain(shown.location);
    expect(shown.message).toMatch(/JSON/);
    expect(shown.hint).toMatch(/syntax/);
    expect(shown.excerpt.map((l) => l.text)).toContain(lines[broken]);
    expect(shown.excerpt.filter((l) => l.offending)).toHaveLength(1);
  });

  it('a file outside the project keeps its absolute path; a problem without a line has no excerpt', () => {
    const shown = overlayProblem({ code: 'key_unknown', file: '/elsewhere/en.json', message: 'missing' }, '/repo', () => 'x');
    expect(shown).toMatchObject({ location: '/elsewhere/en.json', excerpt: [] });
  });

  it("a template's compile error and a render error are reported at the template's line", () => {
    const compile = Object.assign(new Error('Transform failed'), {
      errors: [{ message: "\u001b[31m[PARSE_ERROR] \u001b[0mExpected corresponding JSX closing tag for 'div'.\n  ╭─[ x ]", loc: { file: '/repo/templates/pages/AboutPage.tsx', line: 12 } }],
    });
    expect(templateProblem(compile, '/repo')).toEqual({ code: 'template_failed', file: 'templates/pages/AboutPage.tsx', line: 12, message: "Expected corresponding JSX closing tag for 'div'." });
    const thrown = new TypeError("Cannot read properties of null (reading 'y')");
    thrown.stack = `TypeError: Cannot read properties of null (reading 'y')\n    at A (/repo/templates/pages/HomePage.tsx:3:18)\n    at renderWithHooks (/repo/node_modules/react-dom/cjs/x.js:1:1)`;
    expect(templateProblem(thrown, '/repo')).toMatchObject({ file: 'templates/pages/HomePage.tsx', line: 3 });
  });
});

describe('the dev client script', () => {
  it('is added before </body> with the page and version it shows', () => {
    expect(withDevClient('<html><body><p>x</p></body></html>', 'de/about.html', 'a.1')).toBe(
      '<html><body><p>x</p><script type="module" src="/__sitegen/dev-client.js?file=de%2Fabout.html&amp;version=a.1"></script></body></html>',
    );
  });
});
