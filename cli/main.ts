import { join, relative, resolve } from 'node:path';
import { Command, CommanderError } from 'commander';
import type { BuildResult, BuildStage } from './pipeline/build-result.ts';
import { formatProblem, problemHints, type Problem } from './site/errors.ts';
import { DEFAULT_LANG, LANGUAGES, parseLangList } from './site/languages.ts';
import { DEFAULT_PATHS, PROJECT_ROOT } from './paths.ts';
import { browserUrl, DEFAULT_HOST, listen, listenProblem } from './serve/listen.ts';

// Each command imports its stages when it runs (`await import(…)` below): `sitegen --help` or
// `sitegen status` never loads React, the templates or the Markdown parser.

/** Exit codes: 0 done, 1 the build found problems, 2 bad command-line input or a port that cannot be used. */
const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** Prints problems one per line, then what to do about each kind. */
function writeProblems(write: (text: string) => void, problems: readonly Problem[], indent = ''): void {
  for (const problem of problems) write(`${indent}${formatProblem(problem)}\n`);
  if (problems.length > 0) write(`What to do:\n${problemHints(problems).map((hint) => `  ${hint}\n`).join('')}`);
}

/**
 * The `--timings` line: each stage's milliseconds, the render stage's per page, and the most
 * memory the process has held (resident set, worker threads included).
 *
 * @example stageTimings(result) // 'sitegen: timings (ms): load 95, assets 310, render 2031 (1.62 per page), …, flush 40; peak memory 388 MB\n'
 */
function stageTimings({ stageMs, pages }: BuildResult): string {
  const parts = (Object.entries(stageMs) as [BuildStage, number][]).map(([stage, ms]) =>
    stage === 'render' && pages.length > 0 ? `${stage} ${Math.round(ms)} (${(ms / pages.length).toFixed(2)} per page)` : `${stage} ${Math.round(ms)}`,
  );
  const peakMb = Math.round(process.resourceUsage().maxRSS / 1024);
  return `sitegen: timings (ms): ${parts.join(', ')}; peak memory ${peakMb} MB\n`;
}

/** A problem with its file named from the working folder, as `sitegen check` names them. */
const fromHere = (problem: Problem): Problem => ({ ...problem, file: relative(process.cwd(), problem.file) || problem.file });

/** Reports a bad option value and sets the usage exit code: `sitegen: --port must be … [option_invalid]`. */
function usageError(message: string): void {
  writeProblems((text) => process.stderr.write(text), [{ code: 'option_invalid', file: 'sitegen', message }]);
  process.exitCode = EXIT.usage;
}

const program = new Command()
  .name('sitegen')
  .description('Builds the multilingual static site into a folder ready for any static host.')
  .exitOverride()
  .configureOutput({ outputError: (text, write) => write(text) });

program
  .command('build')
  .description('render every page in every language, compile the CSS, write sitemap.xml and robots.txt')
  .option('--lang <codes>', `"all" or a comma-separated list of ${LANGUAGES.join(', ')}`, 'all')
  .option('--out <dir>', 'output folder', DEFAULT_PATHS.outDir)
  .option('--content <dir>', 'content folder (site.json, locales/, pages/)', DEFAULT_PATHS.contentDir)
  .option('--site-url <url>', 'absolute site URL for canonical links and the sitemap (default: content/site.json)')
  .option('--no-cache', 'build from scratch: forget the records of the last build, render every page and write every file into a fresh folder')
  .option('--allow-missing', 'publish even when a language lacks keys: English shows in their place, one warning per key')
  .option('--timings', 'also print how long each stage took, the render time per page and the peak memory')
  .option('--explain', "also print the build's plan: each page rendered, kept or deleted, and whether the output checks ran, each with its reason")
  .action(async (opts: { lang: string; out: string; content: string; siteUrl?: string; cache: boolean; allowMissing?: boolean; timings?: boolean; explain?: boolean }) => {
    const parsed = parseLangList(opts.lang);
    if (!parsed.ok) {
      usageError(`unknown language ${parsed.unknown.map((c) => `"${c}"`).join(', ')} in --lang; valid values: all, ${LANGUAGES.join(', ')}`);
      return;
    }
    if (opts.siteUrl !== undefined && !/^https?:\/\/[^/\s]+(\/[^\s]*)?$/.test(opts.siteUrl)) {
      usageError(`--site-url must be an absolute http(s) URL, got "${opts.siteUrl}"`);
      return;
    }
    const options = {
      ...DEFAULT_PATHS,
      contentDir: resolve(opts.content),
      outDir: resolve(opts.out),
      langs: parsed.langs,
      siteUrl: opts.siteUrl,
      cache: opts.cache,
      allowMissing: opts.allowMissing ?? false,
    };
    // This process builds once: the sources it reads are looked at once (file-memo.ts).
    (await import('./files/file-memo.ts')).lookOnce();
    // The build record's check first, then the build's stages only when it has something to do:
    // a build that changes nothing loads neither React, the templates nor the Markdown parser.
    const { standingBuild } = await import('./pipeline/cache/build-record.ts');
    const standing = options.cache ? standingBuild(options) : undefined;
    const result = standing?.result
      ? { ...standing.result, plan: (await import('./pipeline/plan/build-plan.ts')).unchangedPlan(standing.result.pages) }
      : await (await import('./pipeline/build-site.ts')).buildSite(options, standing);
    for (const warning of result.warnings) process.stderr.write(`warning: ${formatProblem(warning)}\n`);
    if (result.errors.length > 0) {
      process.stderr.write(`sitegen: build failed with ${result.errors.length} problem(s):\n`);
      writeProblems((text) => process.stderr.write(text), result.errors, '  ');
      process.exitCode = EXIT.failed;
      return;
    }
    const rendered = result.pages.filter((page) => page.rendered).length;
    const cached = rendered < result.pages.length ? ` (${rendered} rendered, ${result.pages.length - rendered} unchanged${result.filesWritten === 0 ? ', nothing written' : ''})` : '';
    process.stdout.write(
      `sitegen: built ${result.pages.length} pages in ${parsed.langs.length} language(s) into ${resolve(opts.out)} in ${Math.round(result.durationMs)} ms${cached}\n`,
    );
    if (opts.timings) process.stdout.write(stageTimings(result));
    if (opts.explain && result.plan) {
      const { explainLines } = await import('./pipeline/plan/build-plan.ts');
      process.stdout.write(`sitegen: plan (decision, page, reason):\n${explainLines(result.plan).map((line) => `  ${line}\n`).join('')}`);
    }
  });

program
  .command('check')
  .description('check the content: translations in step, Markdown pages, internal links, site.json; warn about outdated or missing translations')
  .option('--content <dir>', 'content folder', DEFAULT_PATHS.contentDir)
  .option('--templates <dir>', 'templates folder', join(PROJECT_ROOT, 'templates'))
  .option('--strict', 'a translation made from an older English text is an error, not a warning (for CI)')
  .action(async (opts: { content: string; templates: string; strict?: boolean }) => {
    const { checkContent } = await import('./check/check-content.ts');
    const result = checkContent({ contentDir: resolve(opts.content), templatesDir: resolve(opts.templates), root: process.cwd(), strict: opts.strict ?? false });
    for (const warning of result.warnings) process.stdout.write(`warning: ${formatProblem(warning)}\n`);
    writeProblems((text) => process.stdout.write(text), result.problems);
    const summary = `${result.languages} languages, ${result.keys} keys, ${result.pages} pages`;
    const warnings = result.warnings.length > 0 ? ` (${result.warnings.length} warning(s): \`sitegen status\` shows the translations to update)` : '';
    if (result.problems.length > 0) {
      process.stdout.write(`${summary}: ${result.problems.length} problem(s)${warnings}\n`);
      process.exitCode = EXIT.failed;
    } else process.stdout.write(`${summary}: ok${warnings}\n`);
  });

program
  .command('status')
  .description('print a table of languages × pages: translations up to date, outdated (English changed since) or missing')
  .option('--content <dir>', 'content folder', DEFAULT_PATHS.contentDir)
  .action(async (opts: { content: string }) => {
    const [{ readTranslationStatus }, { statusReport }] = await Promise.all([import('./status/translated.ts'), import('./status/status-table.ts')]);
    const langs = LANGUAGES.filter((l) => l !== DEFAULT_LANG);
    const statuses = readTranslationStatus(resolve(opts.content), langs);
    if ('problems' in statuses) {
      writeProblems((text) => process.stderr.write(text), statuses.problems.map(fromHere));
      process.exitCode = EXIT.failed;
      return;
    }
    process.stdout.write(statusReport(statuses, langs));
  });

program
  .command('translated')
  .description('record that translations are made from the current English text (clears "outdated" in check and status)')
  .argument('<lang>', `the translation's language (${LANGUAGES.filter((l) => l !== DEFAULT_LANG).join(', ')}) or "all"`)
  .argument('[items...]', 'keys (hero.title), key prefixes (hero) or page files (privacy.md); none: every string and page of the language')
  .option('--content <dir>', 'content folder', DEFAULT_PATHS.contentDir)
  .action(async (lang: string, items: string[], opts: { content: string }) => {
    const parsed = parseLangList(lang);
    if (!parsed.ok || (parsed.langs.length === 1 && parsed.langs[0] === DEFAULT_LANG)) {
      usageError(`"${lang}" is not a translation language; valid values: all, ${LANGUAGES.filter((l) => l !== DEFAULT_LANG).join(', ')}`);
      return;
    }
    const langs = parsed.langs.filter((l) => l !== DEFAULT_LANG);
    const { markTranslated } = await import('./status/translated.ts');
    const result = markTranslated(resolve(opts.content), langs, items);
    if ('problems' in result) {
      writeProblems((text) => process.stderr.write(text), result.problems.map(fromHere));
      process.exitCode = EXIT.failed;
      return;
    }
    if (result.unmatched.length > 0) {
      usageError(`${result.unmatched.map((i) => `"${i}"`).join(', ')} matches no key, key prefix or page file (name.md) that ${langs.join(', ')} has; nothing recorded`);
      return;
    }
    for (const [code, recorded] of result.recorded) {
      process.stdout.write(`sitegen: ${code}: recorded ${recorded.length} string(s) and page(s) as translated from the current English${recorded.length <= 5 ? `: ${recorded.join(', ')}` : ''}\n`);
    }
  });

program
  .command('dev')
  .description('serve the site with working forms, rebuild what each save changes, reload the browser, show problems in the page')
  .option('--content <dir>', 'content folder', DEFAULT_PATHS.contentDir)
  .action(async (opts: { content: string }) => {
    // Imported here, not at the top: it loads Vite, Tailwind and the file watcher, which the
    // other commands do not need (about half a second of every `sitegen build`).
    const { runDev } = await import('./dev/dev-command.ts');
    const code = await runDev({
      root: PROJECT_ROOT,
      contentDir: resolve(opts.content),
      templatesDir: join(PROJECT_ROOT, 'templates'),
      cssEntry: DEFAULT_PATHS.cssEntry,
      log: (line) => process.stdout.write(`${line}\n`),
      logError: (line) => process.stderr.write(`${line}\n`),
    });
    // Everything it started has stopped; leave now rather than wait for a library's timer.
    process.exit(code);
  });

program
  .command('preview')
  .description('serve a built folder locally with clean URLs, as a static host would (no form service)')
  .option('--out <dir>', 'the built folder', DEFAULT_PATHS.outDir)
  .option('--port <port>', 'port to listen on', '4321')
  .option('--host <address>', `address to listen on (default: HOST, else ${DEFAULT_HOST}: this machine only)`)
  .action(async (opts: { out: string; port: string; host?: string }) => {
    const port = Number(opts.port);
    if (!Number.isInteger(port) || port < 1 || port > 65535) {
      usageError(`--port must be a number from 1 to 65535, got "${opts.port}"`);
      return;
    }
    const host = opts.host ?? process.env.HOST ?? DEFAULT_HOST;
    const { createStaticServer } = await import('./serve/static-server.ts');
    try {
      await listen(createStaticServer({ root: resolve(opts.out) }), port, host);
    } catch (error) {
      const settings = { program: 'sitegen', host, port, portSetting: '--port', hostSetting: opts.host === undefined ? 'HOST' : '--host' };
      process.stderr.write(`${formatProblem(listenProblem(error as NodeJS.ErrnoException, settings))}\n`);
      process.exitCode = EXIT.usage;
      return;
    }
    process.stdout.write(`sitegen: previewing ${resolve(opts.out)} on ${browserUrl(host, port)}\n`);
  });

// No top-level await: `sitegen build` runs this module compiled as a script (cli/code-cache.js).
program.parseAsync(process.argv).catch((error: unknown) => {
  if (error instanceof CommanderError) {
    const benign = ['commander.helpDisplayed', 'commander.version', 'commander.help'];
    process.exitCode = benign.includes(error.code) ? EXIT.ok : EXIT.usage;
    return;
  }
  // Not a problem of the content or the command line: a fault of sitegen or of the machine (a
  // full disk), printed with where it happened (the .ts files and lines).
  process.stderr.write(`sitegen: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = EXIT.failed;
});
