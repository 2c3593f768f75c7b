import { copyFileSync, linkSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isCompressible } from '../../assets/precompress.ts';
import { listFiles, writeOutFile } from '../../files/folder-files.ts';
import { type FolderRecord, type RecordedFolder, recordFolder, spareDirOf } from './output-store.ts';
import { digest } from './page-inputs.ts';
import { pageFiles } from './page-cache.ts';

/** A file to write under the output folder, its text or its bytes (the page writer's `PageFile`). */
type OutputFile = { file: string } & ({ text: string } | { bytes: Uint8Array });

/** What the plan asks of the page writer (page-writer.ts's `PageWriter` does it): write files in other threads, answering their sizes. */
interface FileWriter {
  write(files: readonly OutputFile[]): number[];
}

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
    readonly held: Pick<RecordedFolder, 'hash'>,
  ) {}

  /** Whether `dir` lacks `file` with content `hash` (and notes the file as part of the output). */
  #needs(file: string, hash: string): boolean {
    this.files.set(file, hash);
    return this.held.hash(file) !== hash;
  }

  /** A file made in this build from `text`, written into `dir` now unless it already holds it. */
  text(file: string, text: string): void {
    if (this.#needs(file, digest(text))) {
      rmSync(join(this.dir, file), { force: true });
      writeOutFile(this.dir, file, text);
      this.written.add(file);
    }
  }

  /** A file already written into `dir` by another stage (a build without the cache, into a new folder). */
  present(file: string): void {
    this.files.set(file, '');
    this.written.add(file);
  }

  /** A file of the output that is `source`'s content, whose hash is `hash`; linked (or copied) at `finish` unless `dir` holds it. */
  copy(file: string, hash: string, source: string): void {
    if (this.#needs(file, hash)) this.#copies.set(file, source);
  }

  /**
   * Documents with their precompressed copies, handed to the page writer when `dir` lacks one
   * of their files; returns each one's size in bytes.
   */
  documents(writer: FileWriter, documents: readonly OutputFile[]): { hash: string; bytes: number }[] {
    const toWrite: OutputFile[] = [];
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

  /** A page kept from the previous output: its files are linked to `outDir`'s when `dir` lacks them. */
  keptPage(outDir: string, file: string, htmlHash: string, bytes: number): void {
    for (const [path, hash] of pageFiles(file, htmlHash, bytes)) this.copy(path, hash, join(outDir, path));
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
    for (const file of listFiles(this.dir)) if (!this.files.has(file)) rmSync(join(this.dir, file), { force: true });
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

/**
 * The assets stage's files as a cached build plans them (build-assets.ts `AssetOutput`): a build
 * cache folder's files are linked into the output at `finish` unless the folder written into holds
 * them (no copy into a folder of its own, deleted after the build); the files the stage makes go
 * to the page writer with their compressed copies (`write`), unless that folder holds them.
 */
export class PlannedAssets {
  /** The asset files, as the output checks list them: the cached ones with their compressed copies, the made ones without. */
  readonly files: string[] = [];
  /** Where each cached file is read from. */
  readonly sources = new Map<string, string>();
  readonly #made: OutputFile[] = [];

  constructor(readonly plan: OutputPlan) {}

  cached = (dir: string): void => {
    // The files `copyCached` copies: not the folder's marker or manifest.
    const files = [...listFiles(dir)].filter((file) => !file.endsWith('.complete') && !file.endsWith('manifest.json'));
    const all = new Set(files);
    for (const file of files) {
      const source = join(dir, file);
      const bytes = readFileSync(source);
      this.files.push(file);
      this.sources.set(file, source);
      // A text file the cache holds without its compressed copies gets them, as a build without the cache gives them (`precompress`).
      if (isCompressible(file, bytes.length) && !(all.has(`${file}.gz`) && all.has(`${file}.br`))) this.#made.push({ file, bytes });
      else this.plan.copy(file, digest(bytes), source);
    }
  };

  text = (file: string, text: string): void => {
    this.files.push(file);
    this.#made.push({ file, text });
  };

  /** Hands the made files to `writer` (those the folder written into lacks). */
  write(writer: FileWriter): void {
    this.plan.documents(writer, this.#made);
  }
}
