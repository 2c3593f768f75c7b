import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Problem } from '../site/errors.ts';
import { DEFAULT_LANG, LANGUAGES, type Lang } from '../site/languages.ts';

/** The file that marks a folder as sitegen output, so it may be replaced by the next build. */
export const OUTPUT_MARKER = '.sitegen-output';
/** What the marker file says. */
export const OUTPUT_MARKER_TEXT = 'This folder is written by `sitegen build` and replaced by every successful build.\n';

/** The problem when `outDir` exists, is not empty and was not made by sitegen (it is never replaced). */
export function foreignOutDir(outDir: string): Problem | null {
  if (!existsSync(outDir) || readdirSync(outDir).length === 0 || existsSync(join(outDir, OUTPUT_MARKER))) return null;
  return { code: 'output_dir_foreign', file: outDir, message: 'not empty and not made by sitegen; choose an empty folder or delete it first' };
}

/**
 * The problem when `outDir` is sitegen's output with pages of languages this build leaves out
 * (`--lang de` over the whole site): publishing it would take those languages off the site that
 * is being served, so the build refuses and the previous output stays.
 */
export function droppedLanguages(outDir: string, langs: readonly Lang[]): Problem | null {
  if (!existsSync(join(outDir, OUTPUT_MARKER))) return null;
  const home = (lang: Lang) => join(outDir, lang === DEFAULT_LANG ? 'index.html' : join(lang, 'index.html'));
  const dropped = LANGUAGES.filter((lang) => !langs.includes(lang) && existsSync(home(lang)));
  if (dropped.length === 0) return null;
  return {
    code: 'output_languages_dropped',
    file: outDir,
    message: `holds the ${dropped.join(', ')} pages, which a build of ${langs.join(', ')} alone would remove; build every language (no --lang), or write this build to another folder with --out`,
  };
}

/**
 * Replaces `outDir` by the finished `staging` folder with two renames on the same file system
 * (the old output is moved aside, the new one into its place, then the old one is deleted), so a
 * server reading `outDir` sees the whole previous site or the whole new one.
 */
export function publishOutput(staging: string, outDir: string): void {
  const previous = `${outDir}.previous-${process.pid}`;
  rmSync(previous, { recursive: true, force: true });
  if (existsSync(outDir)) renameSync(outDir, previous);
  renameSync(staging, outDir);
  rmSync(previous, { recursive: true, force: true });
}

