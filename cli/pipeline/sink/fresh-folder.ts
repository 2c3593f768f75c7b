import { mkdirSync, rmSync } from 'node:fs';
import { recordFolder, writeManifest } from '../cache/output-store.ts';
import { publishOutput } from '../output-dir.ts';
import type { OutputFolder } from './folder-sink.ts';
import { linkedSpare } from './output-plan.ts';

/**
 * A new, empty folder beside `outDir` (`<out>.building-<pid>`), for `--no-cache`: every file is
 * written into it, and it replaces the output (two renames, `publishOutput`; the old output is
 * deleted) only when the build succeeded. Then, as after any first build into a folder, the
 * output is recorded and a spare of hard links to it made, so the next build (one string
 * changed) writes only what changed. A failed build deletes the folder.
 */
export function freshFolder(outDir: string): OutputFolder {
  const dir = `${outDir}.building-${process.pid}`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return {
    dir,
    held: { hash: () => undefined },
    publish(plan, records) {
      const written = plan.finish();
      publishOutput(dir, outDir);
      const out = recordFolder(outDir, plan.files, () => undefined);
      writeManifest(outDir, { out, spare: linkedSpare(outDir, out), ...records });
      return { written, out };
    },
    discard: () => rmSync(dir, { recursive: true, force: true }),
  };
}
