/**
 * For tests of the build cache: a copy of the project's content that a test may edit, a served
 * folder of its own, and a build of the copy (English and German, a fixed clock) with options on
 * top; with what such tests compare between builds.
 */
import { cpSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSite, type BuildOptions, type BuildResult } from '../../cli/pipeline/build-site.ts';
import { DEFAULT_PATHS } from '../../cli/paths.ts';

const NOW = new Date('2026-03-01T00:00:00Z');
const LANGS = ['en', 'de'] as const;

/** A fresh copy of the content (`<prefix>-content-…`), its output folder (`<prefix>-served-…/dist`) and `build`. */
export function copiedSiteBuild(prefix: string): { contentDir: string; outDir: string; build(options?: Partial<BuildOptions>): Promise<BuildResult> } {
  const contentDir = mkdtempSync(join(tmpdir(), `${prefix}-content-`));
  const outDir = join(mkdtempSync(join(tmpdir(), `${prefix}-served-`)), 'dist');
  cpSync(DEFAULT_PATHS.contentDir, contentDir, { recursive: true });
  return { contentDir, outDir, build: (options = {}) => buildSite({ ...DEFAULT_PATHS, contentDir, outDir, langs: LANGS, now: NOW, ...options }) };
}

/** Every file under `dir` with its inode and modification time, which a write would change. */
export function identities(dir: string): Map<string, string> {
  const files = (readdirSync(dir, { recursive: true }) as string[]).filter((f) => statSync(join(dir, f)).isFile()).sort();
  return new Map(files.map((f) => [f, `${statSync(join(dir, f)).ino} ${statSync(join(dir, f)).mtimeMs}`]));
}

/** The files of the pages a build rendered (not kept from the previous build). */
export const renderedFiles = (result: BuildResult) => result.pages.filter((p) => p.rendered).map((p) => p.file);
