import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isCompressible } from '../../assets/precompress.ts';
import type { AssetOutput } from '../build-assets.ts';
import { digest } from '../cache/page-inputs.ts';
import { fileMemo } from '../../files/file-memo.ts';
import { listFiles } from '../../files/folder-files.ts';
import type { OutputSink } from './output-sink.ts';

/**
 * A cached asset file's content hash and size, kept between builds by its size and time (file-memo.ts):
 * the cache's folders do not change once made, and a build no longer reads and hashes their files.
 */
const cachedFile = fileMemo((bytes) => ({ hash: digest(bytes), bytes: bytes.length }), {
  name: 'cached-assets',
  isValue: (value): value is { hash: string; bytes: number } =>
    typeof value === 'object' && value !== null && typeof (value as { hash?: unknown }).hash === 'string' && typeof (value as { bytes?: unknown }).bytes === 'number',
});

/**
 * The assets stage's files (build-assets.ts `AssetOutput`) handed to a sink: an assets' cache
 * folder's files are kept as the cache holds them (linked into the output, never copied into a
 * folder of its own), and the files the stage makes are written.
 */
export class SinkAssets implements AssetOutput {
  /** The asset files, as the output checks list them: the cached ones with their compressed copies, the made ones without. */
  readonly files: string[] = [];
  /** Where each cached file is read from. */
  readonly sources = new Map<string, string>();

  constructor(readonly sink: Pick<OutputSink<never, unknown>, 'write' | 'keep'>) {}

  cached = (dir: string): void => {
    // The files `copyCached` copies: not the folder's marker or manifest.
    const files = [...listFiles(dir)].filter((file) => !file.endsWith('.complete') && !file.endsWith('manifest.json'));
    const all = new Set(files);
    for (const file of files) {
      const source = join(dir, file);
      const { hash, bytes } = cachedFile(source)!;
      this.files.push(file);
      this.sources.set(file, source);
      // A text file the cache holds without its compressed copies is written, and gets them as every file written does.
      if (isCompressible(file, bytes) && !(all.has(`${file}.gz`) && all.has(`${file}.br`))) this.sink.write([{ file, bytes: readFileSync(source) }]);
      else this.sink.keep(file, { hash, source });
    }
  };

  text = (file: string, text: string): void => {
    this.files.push(file);
    this.sink.write([{ file, text }]);
  };
}
