/**
 * The record of the last build that published with the cache: the key of everything it read, the
 * output folder it left, and its result. A build whose inputs have that key, finding the output
 * still as that build left it, would write the same files again: it stops there and answers the
 * recorded result, without loading the content or rendering (a no-change rebuild of the scaling
 * site: about 0.66 → 0.3 s). `sitegen build` (`main.ts`) runs the check before it loads the build's
 * stages, and hands it to `buildSite` (which runs it itself for other callers): a no-change
 * rebuild loads neither React nor the templates (whole-process CPU ×0.87 on the scaling site).
 * A trial of that order on 2026-11-26 measured a whole build's peak 45 MB higher; five alternating
 * whole builds each on 2026-11-28 peaked at 423–493 MB against 436–475 MB before: no rise.
 *
 * The key is content-addressed, like the rest of the cache: the hashes of the bytes of every
 * file in the content folder (a file with the size and time it had when last hashed is not read
 * again: file-hashes.ts), of every project module the build reaches (templates, islands and their
 * bundler, the CSS compiler and the stylesheet's folder), `package-lock.json` for the packages,
 * and the options that change the output (languages, site URL, `--allow-missing`, the day — the
 * footer's year, and security.txt's `Expires` a year after the build's day —, the working folder
 * that problems are reported relative to). A build on a new day therefore runs, and writes
 * security.txt anew; its pages, whose inputs hold only the year, are kept. The output counts as
 * unchanged when it is the same folder (inode) holding the same files with the same sizes and
 * times, and the deployment folder beside it (`dist-deploy/`) holds the same files with the same
 * sizes and times.
 *
 *   const standing = standingBuild(options);
 *   if (standing.result) return standing.result; // nothing to do
 *   … build, publish … ; writeBuildRecord(options.outDir, standing, result, outRecord);
 */
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { z } from 'zod';
import { islandEntryFiles } from '../../../templates/islands/registry.ts';
import { filesUnder } from '../../assets/asset-cache.ts';
import { deployFilesState } from '../../host/deploy-files.ts';
import { moduleGraph } from '../../assets/module-graph.ts';
import { PROJECT_ROOT } from '../../paths.ts';
import { type Problem, SITEGEN_ERRORS, type SitegenErrorCode } from '../../site/errors.ts';
import { type Lang, LANGUAGES } from '../../site/languages.ts';
import type { RoutePageId } from '../../site/routes.ts';
import { listFiles, relativeTo } from '../../files/folder-files.ts';
import { writeRecordFile } from '../../files/record-file.ts';
import { FileHashes, keptHashes, type KeptHashes } from './file-hashes.ts';
import { READ_ONCE, rowList } from './record-columns.ts';
import type { FolderRecord } from './folder-records.ts';
import { cacheDirOf, trustedWhenPresent } from './output-store.ts';

const problem = z.object({
  code: z.enum(Object.keys(SITEGEN_ERRORS) as [SitegenErrorCode, ...SitegenErrorCode[]]),
  file: z.string(),
  line: z.number().optional(),
  message: z.string(),
});

/** The part of the record every build reads: enough to tell whether it has anything to do. */
const recordHead = z.object({
  version: z.literal(2),
  /** The key of the build's inputs (`buildInputsKey`). */
  key: z.string(),
  /** The output folder it published: its inode and the digest of its file list with sizes and times. */
  out: z.object({ ino: z.number(), files: z.string() }),
  /** The deployment folder beside it (`dist-deploy/`): the digest of its files (`deployFilesState`). */
  deploy: z.string(),
  /** The hashes of the files it read, with their sizes and times (file-hashes.ts). */
  inputs: keptHashes,
});

/** The rest, read only by a build that has nothing to do: the recorded result. */
const recordedResult = z.object({
  // A row per page (1,352 on the scaling site), checked in one plain pass (record-columns.ts), its language one of ours.
  pages: rowList({ path: 'string', file: 'string', lang: 'string', page: 'string', bytes: 'number' })
    .refine((pages) => pages.every((page) => (LANGUAGES as readonly string[]).includes(page.lang)), 'a page of an unknown language')
    .transform((pages) => pages as { path: string; file: string; lang: Lang; page: RoutePageId | 'notFound'; bytes: number }[]),
  assets: z.object({ css: z.string(), cssBytes: z.number(), islands: z.array(z.object({ file: z.string(), bytes: z.number() })) }),
  warnings: z.array(problem),
});

const recordFile = (outDir: string) => join(cacheDirOf(outDir), 'build.json');

/** The options of a build that the record keys: all but whether to use the cache (`BuildOptions` adds that). */
export interface RecordedOptions {
  /** Folder with `site.json`, `locales/` and `pages/`. */
  contentDir: string;
  /** The Tailwind entry stylesheet. */
  cssEntry: string;
  outDir: string;
  langs?: readonly Lang[];
  /** Overrides `siteUrl` of `site.json` for canonical URLs and the sitemap. */
  siteUrl?: string;
  /** The clock, for the copyright year. */
  now?: Date;
  /** Publish even when a language lacks keys (English shows in their place), with a warning per key. */
  allowMissing?: boolean;
}

/** A page the build published, as the record keeps it. */
type RecordedPage = z.infer<typeof recordedResult>['pages'][number];

/** What of a build's result the record keeps (a `BuildResult` has these fields). */
interface RecordedResult {
  pages: readonly (RecordedPage & { rendered: boolean })[];
  assets: z.infer<typeof recordedResult>['assets'];
  warnings: Problem[];
}

/** The result of a build that had nothing to do, as the record answers it (a `BuildResult` whose pages were all kept). */
interface StandingResult extends RecordedResult {
  pages: (RecordedPage & { rendered: false })[];
  errors: Problem[];
  durationMs: number;
  filesWritten: 0;
  stageMs: { load: number };
}

/** The key of everything a build with `options` reads (see the top of this file), each file's hash from `hashes`. */
export function buildInputsKey(options: RecordedOptions, hashes = new FileHashes()): string {
  const hash = createHash('sha256');
  // The day (UTC), not only the year: security.txt's Expires is a year after the build's day.
  const day = (options.now ?? new Date()).toISOString().slice(0, 10);
  const settings = { langs: options.langs ?? LANGUAGES, siteUrl: options.siteUrl ?? null, allowMissing: options.allowMissing ?? false, day, cwd: process.cwd() };
  hash.update(JSON.stringify(settings)).update('\0');
  // One line per file, hashed in one call: the same bytes as a call per file (1,600 of them).
  const lines: string[] = [];
  const fromContent = relativeTo(options.contentDir);
  filesUnder(options.contentDir)
    .sort()
    .forEach((file) => lines.push(`${fromContent(file)}\0${hashes.of(file)}\0`));
  const code = moduleGraph([new URL('../build-site.ts', import.meta.url), ...islandEntryFiles()]);
  const fromProject = relativeTo(PROJECT_ROOT);
  [...code, ...filesUnder(dirname(options.cssEntry)).sort(), join(PROJECT_ROOT, 'package-lock.json')].forEach((file) => lines.push(`${fromProject(file)}\0${hashes.of(file)}\0`));
  return hash.update(lines.join('')).digest('hex').slice(0, 32);
}

/** A file's line in `filesDigest`: its name, size and time, each ended by a NUL; its name alone for a file trusted when present (`trustedWhenPresent`). */
const fileLine = (file: string, size: number, mtimeMs: number, present: boolean) => (present ? `${file}\0` : `${file}\0${size}\0${mtimeMs}\0`);

/**
 * The digest of a folder's files from their `fileLine`s, in name order: the lines sort as their
 * names do (a name ends at its NUL, which sorts before any character), so they are sorted as
 * they are, without a comparison of ours per pair (5,300 files on the scaling site).
 */
function filesDigest(lines: string[]): string {
  // One string hashed in one call: the same bytes as a call per file, in less time.
  return createHash('sha256').update(lines.sort().join('')).digest('hex').slice(0, 32);
}

/**
 * The output folder as the record compares it: its inode and the digest of its files; null when
 * there is none. The files are listed, and only those not trusted when present (the pages and
 * the files beside them, not their compressed copies and the assets: `trustedWhenPresent`) are
 * stated: 1,400 of the scaling site's 5,300.
 */
function outputState(outDir: string): { ino: number; files: string } | null {
  const folder = statSync(outDir, { throwIfNoEntry: false });
  if (!folder?.isDirectory()) return null;
  const listed = listFiles(outDir);
  const holds = (file: string) => listed.has(file);
  const prefix = join(outDir, sep);
  const files: string[] = [];
  listed.forEach((file) => {
    if (trustedWhenPresent(file, holds)) files.push(fileLine(file, 0, 0, true));
    else {
      const stat = statSync(prefix + file);
      files.push(fileLine(file, stat.size, stat.mtimeMs, false));
    }
  });
  return { ino: folder.ino, files: filesDigest(files) };
}

/** What `standingBuild` found: the key of the build's inputs and their hashes (for the record), and the recorded result when there is nothing to do. */
export interface Standing {
  key: string;
  inputs: KeptHashes;
  /** The hash of a file's bytes, from the hashes the check took (a content file is not read again). */
  fileHash(path: string): string;
  result: StandingResult | null;
  /** How long the check took; it counts as the `load` stage. */
  ms: number;
}

/** The record of `outDir`'s last build, or null when there is none or it cannot be read. */
function readRecord(outDir: string): { head: z.infer<typeof recordHead>; rest: unknown } | null {
  try {
    const record: unknown = JSON.parse(readFileSync(recordFile(outDir), 'utf8'));
    const head = recordHead.safeParse(record, READ_ONCE);
    return head.success ? { head: head.data, rest: record } : null;
  } catch {
    return null;
  }
}

/**
 * The key of a build with `options`, and its result when the last build had the same key and its
 * output is still as it left it: the build then has nothing to do (every page unchanged, nothing
 * written).
 */
export function standingBuild(options: RecordedOptions): Standing {
  const started = performance.now();
  const record = readRecord(options.outDir);
  const hashes = new FileHashes(record?.head.inputs);
  const key = buildInputsKey(options, hashes);
  const fileHash = (path: string) => hashes.of(path);
  const done = (result: StandingResult | null): Standing => ({ key, inputs: hashes.kept(), fileHash, result, ms: performance.now() - started });
  if (record?.head.key !== key) return done(null);
  const out = outputState(options.outDir);
  const recorded = recordedResult.safeParse(record.rest, READ_ONCE);
  if (!out || out.ino !== record.head.out.ino || out.files !== record.head.out.files || !recorded.success) return done(null);
  if (deployFilesState(options.outDir) !== record.head.deploy) return done(null);
  const pages = recorded.data.pages.map((page) => ({ ...page, rendered: false as const }));
  const ms = performance.now() - started;
  return { key, inputs: hashes.kept(), fileHash, result: { pages, assets: recorded.data.assets, errors: [], warnings: recorded.data.warnings, durationMs: ms, filesWritten: 0, stageMs: { load: ms } }, ms };
}

/**
 * Records a successful build with the cache, whose inputs `standing` found, once its output is in
 * place: `out` is the manifest's record of the output (every file it holds, stated when it was
 * written), so the output is not listed again.
 */
export function writeBuildRecord(outDir: string, standing: Standing, result: RecordedResult, out: FolderRecord): void {
  const files: string[] = [];
  const holds = (file: string) => out.files.has(file);
  out.files.forEach((record, file) => files.push(fileLine(file, record[1], record[2], trustedWhenPresent(file, holds))));
  const pages = result.pages.map(({ rendered: _rendered, ...page }) => page);
  const record = { version: 2, key: standing.key, out: { ino: out.ino, files: filesDigest(files) }, deploy: deployFilesState(outDir), inputs: standing.inputs, pages, assets: result.assets, warnings: result.warnings };
  writeRecordFile(recordFile(outDir), JSON.stringify(record));
}

/** Forgets the record (`--no-cache`, which starts from empty records): this build runs in full and records itself anew. */
export function forgetBuildRecord(outDir: string): void {
  rmSync(recordFile(outDir), { force: true });
}
