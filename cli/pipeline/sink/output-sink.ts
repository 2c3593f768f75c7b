/**
 * Where a build's output goes: the one interface the build writes through. Three implementations:
 *
 * - a fresh folder (`--no-cache`: fresh-folder.ts), every file written, put in place of the output;
 * - the spare folder (the cached build: spare-folder.ts), written only where it differs from what
 *   the build publishes, the files it lacks hard-linked, then swapped with the output;
 * - the dev server's pages in memory (memory-sink.ts), nothing written to disk.
 *
 * A build hands over each file it made (`write`), names each file the output holds as another
 * folder already holds it (`keep`: a page the plan kept, a cached asset or card), and ends with
 * `finish`, which makes the output exactly those files, or `discard` when it failed. What the
 * sink does with them — precompressed copies, writer threads, links, renames — stays behind it.
 *
 *   sink.write([{ file: 'de/about.html', text: html }]); // [{ hash: '9c1e…', bytes: 41873 }]
 *   sink.keep('de/contact.html', { hash: '5a7b…', source: 'dist/de/contact.html', bytes: 39120 });
 *   await sink.finish(records);
 */

/** A file a build made: its path in the output and its text, or its bytes (UTF-8; the sink may move them to another thread, unusable after). */
export type SinkFile = { file: string } & ({ text: string } | { bytes: Uint8Array });

/** A file as handed to `write`: its content hash and its size in bytes. */
export interface WrittenFile {
  hash: string;
  bytes: number;
}

/** A file the output keeps as it is elsewhere (a page the plan kept, a cached asset or social card). */
export interface KeptFile {
  /** Its content hash. */
  hash: string;
  /** Where it is now. */
  source: string;
  /** Its size, for a file an earlier build handed to `write` (a kept page): its compressed copies, beside `source`, are kept with it. */
  bytes?: number;
}

/** The output of a build, written through: `Records` is what `finish` is given, `Published` what it answers. */
export interface OutputSink<Records, Published> {
  /**
   * Files this build made; each text file worth compressing gets its `.gz` and `.br` beside it
   * (as the sink stores files). Returns each file's content hash and size, in order.
   */
  write(files: readonly SinkFile[]): WrittenFile[];
  /** A file of the output as another folder holds it: linked or copied unless the sink holds it already. */
  keep(file: string, kept: KeptFile): void;
  /** Makes the output exactly the files written and kept (nothing else is left of a previous build), and publishes it. */
  finish(records: Records): Promise<Published>;
  /** Drops what was handed over, for a build that failed: the output stays as it was. */
  discard(): Promise<void>;
}
