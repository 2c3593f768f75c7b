import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../../cli/paths.ts';
import { formatProblem, problemHints, SITEGEN_ERRORS } from '../../../cli/site/errors.ts';

// The sitegen reference's "Error codes" table: one row per code of the catalogue.
const REFERENCE = readFileSync(join(PROJECT_ROOT, 'docs', 'sitegen.md'), 'utf8');

/** The text of every source file under cli/ except the catalogue itself. */
function cliSources(dir = join(PROJECT_ROOT, 'cli')): string {
  return readdirSync(dir)
    .map((name) => join(dir, name))
    .map((path) => (statSync(path).isDirectory() ? cliSources(path) : path.endsWith('errors.ts') ? '' : readFileSync(path, 'utf8')))
    .join('\n');
}

describe('the sitegen error catalogue', () => {
  it.each(Object.entries(SITEGEN_ERRORS))('documents %s in docs/sitegen.md with what happened and what to do', (code, entry) => {
    expect(code).toMatch(/^[a-z_]+$/);
    expect(entry.title).toMatch(/\.$/);
    expect(entry.hint).toMatch(/[.)]$/);
    expect(REFERENCE, `docs/sitegen.md's "Error codes" table needs a row for ${code}`).toContain(`| \`${code}\` |`);
  });

  it('lists no code in docs/sitegen.md that the catalogue lacks', () => {
    const table = REFERENCE.slice(REFERENCE.indexOf('\n## Error codes\n') + 1);
    const end = table.indexOf('\n#', 1);
    const documented = [...table.slice(0, end === -1 ? undefined : end).matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]);
    expect(documented.sort()).toEqual(Object.keys(SITEGEN_ERRORS).sort());
  });

  it('has no code that nothing reports', () => {
    const sources = cliSources();
    for (const code of Object.keys(SITEGEN_ERRORS)) expect(sources, code).toContain(`'${code}'`);
  });

  it('formats a problem as file:line: message [code] and hints once per code', () => {
    const problems = [
      { code: 'key_empty', file: 'content/locales/de.json', line: 12, message: 'key "nav.about" is empty' },
      { code: 'key_empty', file: 'content/locales/it.json', line: 3, message: 'key "nav.blog" is empty' },
      { code: 'output_id_duplicate', file: 'de.html', message: 'id "x" is used 2 times; ids must be unique in a page' },
    ] as const;
    expect(problems.map(formatProblem)).toEqual([
      'content/locales/de.json:12: key "nav.about" is empty [key_empty]',
      'content/locales/it.json:3: key "nav.blog" is empty [key_empty]',
      'de.html: id "x" is used 2 times; ids must be unique in a page [output_id_duplicate]',
    ]);
    expect(problemHints(problems)).toEqual([`key_empty: ${SITEGEN_ERRORS.key_empty.hint}`, `output_id_duplicate: ${SITEGEN_ERRORS.output_id_duplicate.hint}`]);
  });
});
