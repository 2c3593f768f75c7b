import { readFileSync } from 'node:fs';
import { dirname, extname } from 'node:path';
import { compile, optimize } from '@tailwindcss/node';
import { Scanner } from '@tailwindcss/oxide';

type Compiler = Awaited<ReturnType<typeof compile>>;

/**
 * The stylesheet of `sitegen dev`, kept up to date class by class: compiled once as
 * `sitegen build` compiles it (cli/assets/css.ts), then, after a template edit, only the edited
 * files are scanned and their classes added to the same Tailwind compiler, and the CSS is
 * minified again only when that added a rule. A class removed from every template stays until
 * the next start (or an edit of styles.css), which a browser never notices.
 */
export class DevStylesheet {
  readonly #compiler: Compiler;
  #raw: string;
  /** The minified CSS, as the pages link and inline it. */
  css: string;

  private constructor(compiler: Compiler, raw: string) {
    this.#compiler = compiler;
    this.#raw = raw;
    this.css = optimize(raw, { minify: true }).code;
  }

  /** Compiles the entry stylesheet with the classes of every template its `@source` lines name. */
  static async create(entryFile: string): Promise<DevStylesheet> {
    const compiler = await compile(readFileSync(entryFile, 'utf8'), { base: dirname(entryFile), from: entryFile, onDependency: () => {} });
    const candidates = new Scanner({ sources: compiler.sources }).scan();
    return new DevStylesheet(compiler, compiler.build(candidates));
  }

  /** Adds the classes the given files use now; returns whether the stylesheet changed. */
  addClassesOf(files: readonly string[]): boolean {
    const scanner = new Scanner({});
    const candidates = scanner.scanFiles(
      files.flatMap((file) => {
        try {
          return [{ content: readFileSync(file, 'utf8'), extension: extname(file).slice(1) }];
        } catch {
          return []; // deleted
        }
      }),
    );
    const raw = this.#compiler.build(candidates);
    if (raw === this.#raw) return false;
    this.#raw = raw;
    this.css = optimize(raw, { minify: true }).code;
    return true;
  }
}
