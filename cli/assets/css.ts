import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { compile, optimize } from '@tailwindcss/node';
import { Scanner } from '@tailwindcss/oxide';

/**
 * Compiles the Tailwind entry stylesheet into minified CSS holding only the classes the
 * templates use (the entry's `@source` lines say where to look).
 */
export async function compileCss(entryFile: string): Promise<string> {
  const base = dirname(entryFile);
  const compiler = await compile(readFileSync(entryFile, 'utf8'), { base, from: entryFile, onDependency: () => {} });
  const scanner = new Scanner({ sources: compiler.sources });
  const candidates = scanner.scan();
  return optimize(compiler.build(candidates), { minify: true }).code;
}
