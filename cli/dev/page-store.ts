import type { MemoryPages } from '../pipeline/sink/memory-sink.ts';

/** One page as `sitegen dev` serves it. */
interface StoredPage {
  html: string;
  /** Changes whenever the page's HTML does; a browser tab that loaded another version reloads. */
  version: string;
}

/**
 * The pages of `sitegen dev`, in memory (nothing is written to `dist/`), by their file in the
 * output layout (`de/about.html`), each with a version that changes when its HTML does.
 */
export class PageStore implements MemoryPages {
  readonly #pages = new Map<string, StoredPage>();
  /** Differs between runs, so that a tab left open across a restart reloads. */
  readonly #run = Date.now().toString(36);
  #count = 0;

  has(file: string): boolean {
    return this.#pages.has(file);
  }

  get(file: string): StoredPage | undefined {
    return this.#pages.get(file);
  }

  /** Replaces the pages given and, when `keep` is given, removes every page not in it; returns the files whose HTML changed. */
  update(pages: ReadonlyMap<string, string>, keep?: ReadonlySet<string>): string[] {
    const changed: string[] = [];
    if (keep) {
      for (const file of this.#pages.keys()) {
        if (!keep.has(file)) {
          this.#pages.delete(file);
          changed.push(file);
        }
      }
    }
    for (const [file, html] of pages) {
      if (this.#pages.get(file)?.html === html) continue;
      this.#pages.set(file, { html, version: `${this.#run}.${++this.#count}` });
      changed.push(file);
    }
    return changed;
  }
}
