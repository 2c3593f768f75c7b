/**
 * A content page whose front matter is code (`---js`, as gray-matter's engines would evaluate it)
 * is an error for every command that reads pages, and nothing of it runs: the red team's
 * translation pull request that wrote a file from `sitegen check` in CI.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../../cli/paths.ts';
import { FrontMatterLanguageError, frontMatterOpening, splitFrontMatter } from '../../../cli/site/markdown/front-matter.ts';
import { testFolder } from '../../helpers/test-folders.ts';

/** A German page whose front matter, were it evaluated, writes `marker` and still reads as a page. */
const codePage = (marker: string, opening = '---js') =>
  `${opening}\n{ title: (process.getBuiltinModule('node:fs').writeFileSync(${JSON.stringify(marker)}, 'ran'), 'Gesundheitswesen'), description: 'Daten', slug: 'gesundheitswesen', nav: 'solutions' }\n---\n\nText.\n`;

describe('a page whose front matter is code', () => {
  it('regression: build, check, status and translated report it as front_matter_language at its first line, and never run it', () => {
    const root = testFolder('front-matter-code-');
    cpSync(join(PROJECT_ROOT, 'content'), join(root, 'content'), { recursive: true });
    const marker = join(root, 'ran.txt');
    const page = join(root, 'content', 'pages', 'de', 'healthcare.md');
    writeFileSync(page, codePage(marker));
    const lock = readFileSync(join(root, 'content', 'translations.lock.json'), 'utf8');
    const sitegen = (...args: string[]) => {
      const run = spawnSync(process.execPath, [join(PROJECT_ROOT, 'cli', 'bin.js'), ...args, '--content', 'content'], { cwd: root, encoding: 'utf8' });
      return { code: run.status, output: run.stdout + run.stderr };
    };
    const reported = 'content/pages/de/healthcare.md:1: front matter opens with "---js", but only YAML front matter is read';

    for (const args of [['build', '--out', join(root, 'out', 'dist')], ['check'], ['status'], ['translated', 'de'], ['translated', 'de', 'healthcare.md']]) {
      const run = sitegen(...args);
      expect(run.code, args.join(' ')).toBe(1);
      expect(run.output, args.join(' ')).toContain(reported);
      expect(run.output, args.join(' ')).toContain('[front_matter_language]');
      expect(existsSync(marker), `${args.join(' ')} ran the front matter`).toBe(false);
    }
    expect(readFileSync(join(root, 'content', 'translations.lock.json'), 'utf8')).toBe(lock);
  }, 60_000);

  it.each(['---js', '---javascript', '---coffee', '---json', '--- js ', '---JS'])('refuses a front matter that opens with "%s", naming the language', (opening) => {
    const source = codePage('/nonexistent/ran.txt', opening);
    expect(frontMatterOpening(source)).toEqual({ kind: 'refused', language: opening.slice(3).trim() });
    expect(() => splitFrontMatter(source)).toThrow(FrontMatterLanguageError);
  });

  it('reads "---", "---yaml" and "---yml" as YAML, and the same page either way', () => {
    const page = '\ntitle: Hi\ndescription: D\nslug: hi\n---\n# Body\n';
    const plain = splitFrontMatter(`---${page}`);
    for (const opening of ['---yaml', '---yml', '--- ']) {
      const other = splitFrontMatter(`${opening}${page}`);
      expect({ data: other.data, body: other.body, bodyLine: other.bodyLine }).toEqual({ data: plain.data, body: plain.body, bodyLine: plain.bodyLine });
    }
    expect(frontMatterOpening('----\ntitle: Hi\n')).toEqual({ kind: 'none' });
    expect(frontMatterOpening('# Privacy\n')).toEqual({ kind: 'none' });
  });

  it('reads YAML tags that would make code (!!js/function) as an error, not a function', () => {
    expect(() => splitFrontMatter("---\ntitle: !!js/function 'function () { return 1 }'\n---\n")).toThrow(/unknown tag/);
  });
});
