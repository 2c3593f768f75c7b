import { digest } from '../cache/page-inputs.ts';
import type { KeptFile, OutputSink, SinkFile, WrittenFile } from './output-sink.ts';

/** The pages `sitegen dev` serves from memory (dev/page-store.ts), as the memory sink updates them. */
export interface MemoryPages {
  /** Replaces the pages given and, when `keep` is given, removes every page not in it; returns the files whose HTML changed. */
  update(pages: ReadonlyMap<string, string>, keep?: ReadonlySet<string>): string[];
}

/**
 * The sink of `sitegen dev`: pages are held in memory, by their file in the output layout,
 * nothing is written to disk and nothing compressed (the dev server sends them as they are). A
 * `whole` rebuild (every page) removes at `finish` the pages it neither wrote nor kept; another
 * leaves the pages it did not touch as they were. `finish` answers the files whose HTML changed.
 */
export class MemorySink implements OutputSink<void, string[]> {
  readonly #written = new Map<string, string>();
  readonly #kept = new Set<string>();

  constructor(
    readonly pages: MemoryPages,
    readonly options: { whole: boolean },
  ) {}

  write(files: readonly SinkFile[]): WrittenFile[] {
    return files.map((file) => {
      const text = 'text' in file ? file.text : new TextDecoder().decode(file.bytes);
      this.#written.set(file.file, text);
      return { hash: digest(text), bytes: Buffer.byteLength(text) };
    });
  }

  keep(file: string, _kept?: KeptFile): void {
    this.#kept.add(file);
  }

  async finish(): Promise<string[]> {
    const keep = this.options.whole ? new Set([...this.#written.keys(), ...this.#kept]) : undefined;
    return this.pages.update(this.#written, keep);
  }

  async discard(): Promise<void> {
    this.#written.clear();
    this.#kept.clear();
  }
}
