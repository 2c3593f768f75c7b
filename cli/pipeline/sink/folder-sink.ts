import type { FolderRecord } from '../cache/folder-records.ts';
import type { Manifest } from '../cache/output-store.ts';
import { OUTPUT_MARKER, OUTPUT_MARKER_TEXT } from '../output-dir.ts';
import { type HeldFiles, OutputPlan } from './output-plan.ts';
import type { KeptFile, OutputSink, SinkFile, WrittenFile } from './output-sink.ts';
import { type PageWriter, startPageWriter } from './page-writer.ts';

/** What a build records beside its output when it publishes: the manifest's pages, the checks' key and the host files. */
export type BuildRecords = Omit<Manifest, 'version' | 'out' | 'spare'>;

/** What publishing a folder did: how many files were written into it, and the record of the output now in place. */
export interface Published {
  written: number;
  out: FolderRecord;
}

/** A folder a build writes into and how it is put in place of the output: a fresh one (fresh-folder.ts) or the spare (spare-folder.ts). */
export interface OutputFolder {
  /** The folder written into. */
  dir: string;
  /** The files it already holds, trusted by their records (none in a fresh folder). */
  held: HeldFiles;
  /** Completes the folder as `plan` says (links, deletions), puts it in place of the output and writes the records. */
  publish(plan: OutputPlan, records: BuildRecords): Published;
  /** Clears up after a build that failed; the output stays as it was. */
  discard(): void;
}

/**
 * The sink of `sitegen build`: files go into `folder.dir`, each written only when the folder
 * lacks it with that content (the output plan), by the page writer's threads with their
 * precompressed copies; kept files are hard-linked at `finish`, which then publishes the folder.
 * The folder is marked as sitegen's output, so a later build may replace it.
 */
export class FolderSink implements OutputSink<BuildRecords, Published> {
  readonly #plan: OutputPlan;
  readonly #writer: PageWriter;

  constructor(readonly folder: OutputFolder) {
    this.#plan = new OutputPlan(folder.dir, folder.held);
    this.#writer = startPageWriter(folder.dir);
    this.write([{ file: OUTPUT_MARKER, text: OUTPUT_MARKER_TEXT }]);
  }

  /** The folder written into (a file handed to `write` may not be there before `finish`). */
  get dir(): string {
    return this.folder.dir;
  }

  write(files: readonly SinkFile[]): WrittenFile[] {
    return this.#plan.documents(this.#writer, files);
  }

  keep(file: string, kept: KeptFile): void {
    if (kept.bytes === undefined) this.#plan.copy(file, kept.hash, kept.source);
    else this.#plan.keptWritten(file, kept.hash, kept.bytes, kept.source);
  }

  async finish(records: BuildRecords): Promise<Published> {
    await this.#writer.finish();
    return this.folder.publish(this.#plan, records);
  }

  async discard(): Promise<void> {
    await this.#writer.stop();
    this.folder.discard();
  }
}
