/**
 * The README and the guides in docs/ cannot go stale: every repository path, `npm run` script,
 * command, option, environment variable, error code and link they name is checked against the
 * code as it is, and each guide keeps a table of contents and whole heading levels.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../cli/paths.ts';
import { DATA_FACTS } from '../../ingest/contract/data-facts.ts';
import { ERROR_CODES } from '../../ingest/contract/error-codes.ts';
import { OPERATOR_ERRORS } from '../../ingest/operator-errors.ts';
import { commandsOf, writtenCommand } from './cli-programs.ts';
import { type Doc, parseDoc } from './markdown.ts';

const read = (path: string) => readFileSync(join(PROJECT_ROOT, path), 'utf8');

const GUIDE_PATHS = readdirSync(join(PROJECT_ROOT, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .sort()
  .map((name) => `docs/${name}`);
const DOCS: readonly Doc[] = ['README.md', ...GUIDE_PATHS].map((path) => parseDoc(path, read(path)));
const GUIDES = DOCS.filter((doc) => doc.path.startsWith('docs/'));
const doc = (path: string) => DOCS.find((d) => d.path === path)!;

/** A program's commander source: its main file and the modules that add commands to it (`addWebhookCommands`). */
const programSource = (main: string) =>
  main === 'ingest/main.ts' ? [main, 'ingest/webhooks/webhook-commands.ts', 'ingest/mail/outbox-commands.ts'].map(read).join('\n') : read(main);

/** Every line of code a reader may type: inline code, and each line of a fenced block. */
const codeOf = (d: Doc) => [...d.codeSpans, ...d.fenceLines];

/** The lines of the section under the heading `title` (to the next heading of its level or higher). */
function section(d: Doc, title: string): string {
  const heading = d.headings.find((h) => h.text === title);
  if (heading === undefined) throw new Error(`${d.path} has no heading "${title}"`);
  const next = d.headings.find((h) => h.line > heading.line && h.level <= heading.level);
  return d.text.split('\n').slice(heading.line, next === undefined ? undefined : next.line - 1).join('\n');
}

/** The first column of a Markdown table's rows when it is one code span: `| \`PORT\` | …` → PORT. */
const firstColumn = (text: string) => [...text.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]!);

// Folders whose files the guides name by their path from the project root.
const SOURCE_PATH = /(?<![\w./-])((?:cli|templates|content|ingest|tests|docs|\.ci)\/[\w.\/-]*[\w\/])/g;
const TOP_LEVEL_FILES = new Set(['Dockerfile', 'package.json', 'package-lock.json', 'tsconfig.json', 'vitest.config.ts', 'knip.jsonc', '.dependency-cruiser.cjs']);

/** The text of every source file of the two programs, their tests and build files (not of the docs). */
const SOURCES = (() => {
  const files = ['Dockerfile', '.ci/run', 'package.json'];
  for (const dir of ['cli', 'templates', 'ingest', 'tests']) {
    for (const name of readdirSync(join(PROJECT_ROOT, dir), { recursive: true, encoding: 'utf8' })) {
      if (/\.(ts|tsx|js|sh|json)$/.test(name) && !name.startsWith('docs')) files.push(join(dir, name));
    }
  }
  return files.map(read).join('\n');
})();

describe.each(DOCS.map((d) => [d.path, d] as const))('%s', (_path, d) => {
  it('names only environment variables and constants that the code has', () => {
    const names = d.codeSpans.map((span) => span.split('=')[0]!).filter((span) => /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(span));
    expect([...new Set(names)].filter((name) => !new RegExp(`\\b${name}\\b`).test(SOURCES)), `${d.path} names variables no code reads`).toEqual([]);
  });

  it('names only repository paths that exist', () => {
    const named = codeOf(d).flatMap((code) => [...code.matchAll(SOURCE_PATH)].map((m) => m[1]!));
    const files = d.codeSpans.filter((span) => TOP_LEVEL_FILES.has(span) || /^\.?[\w-]+\.(json|jsonc|cjs)$/.test(span) && existsSync(join(PROJECT_ROOT, span)));
    const missing = [...new Set([...named, ...files])].filter((path) => !existsSync(join(PROJECT_ROOT, path)));
    expect(missing, `${d.path} names paths that do not exist`).toEqual([]);
  });

  it('runs only npm scripts that package.json defines', () => {
    const scripts = Object.keys((JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts);
    const used = [...d.text.matchAll(/npm run (?:--silent )?([\w:-]+)/g)].map((m) => m[1]!);
    expect([...new Set(used)].filter((name) => !scripts.includes(name)), `${d.path} runs scripts package.json lacks`).toEqual([]);
  });

  it.each([
    ['sitegen', 'cli/bin.js', 'cli/main.ts'],
    ['ingest', 'ingest/bin.js', 'ingest/main.ts'],
  ] as const)('writes only %s commands and options that exist', (name, bin, main) => {
    const commands = commandsOf(programSource(main));
    const wrong: string[] = [];
    for (const line of codeOf(d)) {
      const written = writtenCommand(name, bin, line);
      // A placeholder (COMMAND, <command>) or commander's own `help` names no command to check.
      if (written === null || !/^[a-z][\w-]*$/.test(written.command) || written.command === 'help') continue;
      const command = commands.has(`${written.command} ${written.next}`) ? `${written.command} ${written.next}` : written.command;
      const options = commands.get(command);
      if (options === undefined) wrong.push(`${line} (no command "${command}")`);
      else for (const option of written.options) if (!options.has(option)) wrong.push(`${line} (${command} has no ${option})`);
    }
    expect(wrong, `${d.path}: commands as ${main} defines them`).toEqual([]);
  });

  it('links only to files and headings that exist', () => {
    const broken: string[] = [];
    for (const link of d.links) {
      if (/^[a-z]+:/.test(link) || link.startsWith('/')) continue;
      const [file = '', anchor] = link.split('#');
      const target = file === '' ? d.path : normalize(join(dirname(d.path), file));
      if (relative(PROJECT_ROOT, join(PROJECT_ROOT, target)).startsWith('..') || !existsSync(join(PROJECT_ROOT, target))) {
        broken.push(`${link} (no file ${target})`);
      } else if (anchor !== undefined) {
        const linked = DOCS.find((other) => other.path === target) ?? parseDoc(target, read(target));
        if (!linked.headings.some((h) => h.slug === anchor)) broken.push(`${link} (no heading #${anchor} in ${target})`);
      }
    }
    expect(broken, `${d.path} has broken links`).toEqual([]);
  });

  it('has one title and skips no heading level', () => {
    expect(d.headings[0]?.level, `${d.path} starts with its "# " title`).toBe(1);
    expect(d.headings.filter((h) => h.level === 1)).toHaveLength(1);
    const skips = d.headings.filter((h, i) => i > 0 && h.level > d.headings[i - 1]!.level + 1);
    expect(skips.map((h) => `line ${h.line}: ${'#'.repeat(h.level)} ${h.text}`), `${d.path} skips a heading level`).toEqual([]);
  });
});

describe.each(GUIDES.map((d) => [d.path, d] as const))('%s as a guide', (_path, d) => {
  it('has a table of contents that links every section', () => {
    const contents = section(d, 'Contents');
    const listed = [...contents.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]!);
    const sections = d.headings.filter((h) => h.level === 2 && h.text !== 'Contents').map((h) => h.slug);
    expect(sections.filter((slug) => !listed.includes(slug)), `${d.path}: sections missing from its contents`).toEqual([]);
  });

  it('is linked from the README', () => {
    expect(doc('README.md').links).toContain(d.path);
  });
});

describe('the README', () => {
  it('stays short: what it is, the two commands, where to go next', () => {
    const readme = doc('README.md');
    expect(readme.text.split('\n').length).toBeLessThanOrEqual(200);
    expect(readme.fenceLines.join('\n')).toMatch(/^npm install && npm start\b/m);
    expect(readme.fenceLines.join('\n')).toMatch(/^npm test\b/m);
    expect(readme.links).toContain('docs/developers.md#where-things-are');
  });
});

describe("the developers' guide", () => {
  it('answers where things are with paths, one step from its contents', () => {
    const answers = section(doc('docs/developers.md'), 'Where things are');
    for (const question of [/page's HTML/, /signup/, /sales mail/, /config generated/, /opt-in token/]) {
      const row = answers.split('\n').find((line) => line.startsWith('|') && question.test(line.split('|')[1] ?? ''));
      expect(row, `"Where things are" answers ${question}`).toBeDefined();
      expect([...row!.matchAll(SOURCE_PATH)].length, `the answer to ${question} names a file`).toBeGreaterThan(0);
    }
  });
});

/**
 * Whether the dotted name `path` leads to something in `tree`: `*` stands for any children, `<x>` for
 * any one child. `('nav.signUp')`, `('overview.why.*')`, `('validation.<issue>')`.
 */
function hasKey(tree: unknown, path: readonly string[]): boolean {
  if (path.length === 0) return true;
  if (typeof tree !== 'object' || tree === null) return false;
  const [part = '', ...rest] = path;
  if (part === '*') return rest.length === 0;
  if (/^<\w+>$/.test(part)) return Object.values(tree).some((child) => hasKey(child, rest));
  return Object.hasOwn(tree, part) && hasKey((tree as Record<string, unknown>)[part], rest);
}

describe("the content maintainers' guide", () => {
  const guide = doc('docs/content.md');

  it('names only strings that content/locales/en.json has (or fields of content/site.json)', () => {
    const strings: unknown = JSON.parse(read('content/locales/en.json'));
    const site: unknown = JSON.parse(read('content/site.json'));
    const tops = new Set([...Object.keys(strings as object), ...Object.keys(site as object)]);
    // A dotted name under a top-level key (`nav.signUp`, `meta.home.*`), not a file name (`en.json`).
    const named = guide.codeSpans.filter((span) => /^[a-z]\w*(?:\.(?:\w+|\*|<\w+>))+$/.test(span) && tops.has(span.split('.')[0]!) && !/\.(json|md|ts|tsx|html)$/.test(span));
    expect(named.length, 'the guide names strings by their keys').toBeGreaterThan(0);
    const missing = [...new Set(named)].filter((span) => !hasKey(strings, span.split('.')) && !hasKey(site, span.split('.')));
    expect(missing, 'docs/content.md names strings no locale file has').toEqual([]);
  });

  it('lists every number of ingest/contract/data-facts.ts with its value, and no other', () => {
    const rows = [...section(guide, 'Numbers the service applies').matchAll(/^\| `\{\{(\w+)\}\}` \| (\d+) \|/gm)];
    expect(Object.fromEntries(rows.map((m) => [m[1]!, Number(m[2])]))).toEqual({ ...DATA_FACTS });
  });

  it('gives each departure from the specification its section, what the site does and why', () => {
    const rows = section(guide, 'Where the site departs from the specification')
      .split('\n')
      .filter((line) => line.startsWith('| '))
      .slice(1) // the header row; the separator starts with "|-"
      .map((line) => line.replace(/`[^`]*`/g, 'code').split(' | '));
    expect(rows.length, 'the table has rows').toBeGreaterThan(0);
    for (const cells of rows) {
      expect(cells, 'three cells: specification, what the site does, why').toHaveLength(3);
      expect(cells[0], 'the first cell names the section of the specification it quotes').toMatch(/^\| §\d/);
      for (const cell of cells) expect(cell.replace(/^\| | \|$/g, '').trim().length, `a filled cell in ${cells[0]}`).toBeGreaterThan(10);
    }
  });
});

describe("the operators' guide", () => {
  it('lists exactly the environment variables ingest/config/env-schema.ts reads', () => {
    const source = read('ingest/config/env-schema.ts');
    const list = /const VARIABLES = \[([\s\S]*?)\] as const/.exec(source)?.[1];
    expect(list, 'ingest/config/env-schema.ts keeps its variables in VARIABLES').toBeDefined();
    const read_ = [...list!.matchAll(/'([A-Z][A-Z0-9_]*)'/g)].map((m) => m[1]!).sort();
    const documented = firstColumn(section(doc('docs/operators.md'), 'Environment variables')).sort();
    expect(documented, 'docs/operators.md "Environment variables" needs one row per variable of ingest/config/env-schema.ts').toEqual(read_);
  });
});

describe('the numbers the guides promise people to keep', () => {
  it("state the data facts' table: backups kept backupDays, the sales mailbox cleaned after contactYears, access logs rotated within accessLogDays", () => {
    const backups = section(doc('docs/operators.md'), 'Back up and restore');
    expect(backups).toContain(`${DATA_FACTS.backupDays} days at most`);
    expect(backups).toContain(`-mtime +${DATA_FACTS.backupDays} -delete`);
    const mailbox = section(doc('docs/leads.md'), 'Keep the sales mailbox as long as the privacy policy says');
    expect(mailbox).toContain(`${DATA_FACTS.contactYears} years after it was received`);
    expect(mailbox).toContain(`older_than:${DATA_FACTS.contactYears}y`);
    expect(mailbox).toContain(`set it to ${DATA_FACTS.contactYears * 365} days`);
    const nginx = section(doc('docs/operators.md'), 'The site on nginx');
    expect(nginx).toContain(`keeps a line ${DATA_FACTS.accessLogDays} days at most`);
    expect(nginx).toContain(`\`rotate ${DATA_FACTS.accessLogDays - 1}\``);
  });
});

describe("the developers' guide's test stages", () => {
  it('follow tests/run-all.sh, stage by stage, in order', () => {
    // Each stage of the script: its title and its commands, up to the next stage.
    const stages = read('tests/run-all.sh').split(/^stage /m).slice(1);
    const items = section(doc('docs/developers.md'), 'What npm test runs')
      .split(/^\d+\. /m)
      .slice(1)
      .map((item) => /`([^`]+)`/.exec(item)?.[1] ?? item.slice(0, 40));
    expect(items.length, 'one numbered item per stage of tests/run-all.sh').toBe(stages.length);
    items.forEach((code, i) => expect(stages[i], `item ${i + 1} ("${code}") is stage ${i + 1} of tests/run-all.sh`).toContain(code));
  });
});

describe('the ingest reference', () => {
  it('lists every HTTP error code with its status', () => {
    const rows = [...section(doc('docs/ingest.md'), 'HTTP error codes').matchAll(/^\| `(\w+)` \| (\d{3}) \|/gm)];
    const documented = Object.fromEntries(rows.map((m) => [m[1]!, Number(m[2])]));
    expect(documented).toEqual(Object.fromEntries(Object.entries(ERROR_CODES).map(([code, entry]) => [code, entry.status])));
  });

  it('lists every operator error with its exit code', () => {
    const rows = [...section(doc('docs/ingest.md'), 'Exit codes and operator errors').matchAll(/^\| (\d) \| `(\w+)` \|/gm)];
    const documented = Object.fromEntries(rows.map((m) => [m[2]!, Number(m[1])]));
    expect(documented).toEqual(Object.fromEntries(Object.entries(OPERATOR_ERRORS).map(([code, entry]) => [code, entry.exit])));
  });
});

describe.each([
  ['docs/sitegen.md', 'cli/main.ts'],
  ['docs/ingest.md', 'ingest/main.ts'],
] as const)('%s', (path, main) => {
  it(`names only options that ${main} defines`, () => {
    const known = new Set([...commandsOf(programSource(main)).values()].flatMap((options) => [...options]));
    const named = doc(path).codeSpans.filter((span) => span.startsWith('--')).map((span) => span.split(/[\s=]/)[0]!);
    expect(named.filter((option) => !known.has(option))).toEqual([]);
  });
});
