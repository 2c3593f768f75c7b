import { copyFileSync, linkSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FolderRecord } from '../cache/folder-records.ts';
import { type RecordedFolder, recordFolder, spareDirOf } from '../cache/output-store.ts';
import { pageFiles } from '../cache/page-cache.ts';
import { digest } from '../cache/page-inputs.ts';
import { listFiles } from '../../files/folder-files.ts';
import type { SinkFile, WrittenFile } from './output-sink.ts';
import type { PageFile, PageWriter } from './page-writer.ts';

/** What a folder written into already holds, as the plan asks it: each file's trusted hash, and the folder's files as listed once (none for a new folder). */
export type HeldFiles = Pick<RecordedFolder, 'hash'> & Partial<Pick<RecordedFolder, 'listed'>>;

/**
 * The files a build publishes, with their content hashes, and the writes that put them into the
 * folder the build writes into (`dir`): a file that folder already holds with the same content
 * (`held`, the spare's trusted files; none for a new folder) is not written again.
 *
 * A file the folder lacks that the served output has unchanged (a page kept from the previous
 * build) becomes a hard link to the output's file, not a copy: after the swap, the output and the
 * spare share those files. So nothing may ever write into a file of the folder: every write here
 * and in the page writer deletes the file first and writes a new one, which leaves the other
 * folder's link as it was.
 */
export class OutputPlan {
  /** Every file of the output: path → content hash. */
  readonly files = new Map<string, string>();
  /** Files already written into `dir` by this build. */
  readonly written = new Set<string>();
  /** The written files that are hard links to another folder's file: path → that file's path. */
  readonly linked = new Map<string, string>();
  /** Files to copy into `dir` at the end when it lacks them: path → the file to copy. */
  readonly #copies = new Map<string, string>();

  constructor(
    readonly dir: string,
    readonly held: HeldFiles,
  ) {}

  /** Whether `dir` lacks `file` with content `hash` (and notes the file as part of the output). */
  #needs(file: string, hash: string): boolean {
    this.files.set(file, hash);
    return this.held.hash(file) !== hash;
  }

  /** A file of the output that is `source`'s content, whose hash is `hash`; linked (or copied) at `finish` unless `dir` holds it. */
  copy(file: string, hash: string, source: string): void {
    if (this.#needs(file, hash)) this.#copies.set(file, source);
  }

  /**
   * Documents with their precompressed copies, handed to the page writer when `dir` lacks one
   * of their files; returns each one's size in bytes.
   */
  documents(writer: PageWriter, documents: readonly SinkFile[]): WrittenFile[] {
    const toWrite: PageFile[] = [];
    const sizes = documents.map((document) => {
      // Encoded once: hashed here, then moved to the page writer.
      const encoded = 'bytes' in document ? document.bytes : new TextEncoder().encode(document.text);
      const hash = digest(encoded);
      const bytes = encoded.length;
      const needed = pageFiles(document.file, hash, bytes).map(([file, fileHash]) => this.#needs(file, fileHash));
      if (needed.some(Boolean)) {
        toWrite.push({ file: document.file, bytes: encoded });
        for (const [file] of pageFiles(document.file, hash, bytes)) this.written.add(file);
      }
      return { hash, bytes };
    });
    if (toWrite.length > 0) writer.write(toWrite);
    return sizes;
  }

  /** A file written by an earlier build (`bytes` long) with its compressed copies, kept as `source` (and the copies beside it) hold them. */
  keptWritten(file: string, hash: string, bytes: number, source: string): void {
    // A callback, not `for … of` with destructuring: this runs for every kept page (1,351 in a one-string rebuild), never warmed up.
    pageFiles(file, hash, bytes).forEach((f) => this.copy(f[0], f[1], source + f[0].slice(file.length)));
  }

  /**
   * Completes `dir` as the output: links the files it lacks (copies them where the file system
   * has no hard links) and deletes the files the output no longer has. Returns how many files
   * were written into it in all.
   */
  finish(): number {
    // A folder is made once, and a link tried before anything is deleted: the build after a
    // build from scratch links every file of the output into a new spare (3,800 on the scaling site).
    const folders = new Set<string>();
    const link = (source: string, target: string) => {
      try {
        linkSync(source, target);
        return true;
      } catch {
        return false;
      }
    };
    for (const [file, source] of this.#copies) {
      const target = join(this.dir, file);
      if (!folders.has(dirname(target))) {
        mkdirSync(dirname(target), { recursive: true });
        folders.add(dirname(target));
      }
      let linked = link(source, target);
      if (!linked) {
        // Another file is in the way, or the file system has no hard links: deleted first, so
        // that a file the other folder shares is never written through.
        rmSync(target, { force: true });
        linked = link(source, target);
        if (!linked) copyFileSync(source, target);
      }
      if (linked) this.linked.set(file, source);
      this.written.add(file);
    }
    // The folder's files as listed before this build wrote into it, when it was asked already: a
    // file it wrote since is one of `files`.
    (this.held.listed?.() ?? listFiles(this.dir)).forEach((file) => {
      if (!this.files.has(file)) rmSync(join(this.dir, file), { force: true });
    });
    return this.written.size;
  }
}

/**
 * Makes a spare of the output of `outDir` (recorded as `out`) after a build that left none (the
 * first build into `outDir`): its files linked as `finish` links the pages a build keeps, so the
 * next build (one string changed) writes into it only what changed. Returns the spare's record:
 * a link has its output file's size and time; a copy (a file system without hard links) is
 * looked at.
 */
export function linkedSpare(outDir: string, out: FolderRecord): FolderRecord {
  const dir = spareDirOf(outDir);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const plan = new OutputPlan(dir, { hash: () => undefined });
  for (const [file, [hash]] of out.files) plan.copy(file, hash, join(outDir, file));
  plan.finish();
  return recordFolder(dir, plan.files, (file) => (plan.linked.has(file) ? out.files.get(file) : undefined));
}
