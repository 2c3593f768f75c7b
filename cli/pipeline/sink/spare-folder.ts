import { join } from 'node:path';
import { cachedStaging, keepRecord, type PreviousBuild, recordFolder, spareDirOf, swapWithSpare, writeManifest } from '../cache/output-store.ts';
import type { OutputFolder } from './folder-sink.ts';
import { linkedSpare } from './output-plan.ts';

/**
 * The spare of `outDir` (the output before last: cache/output-store.ts), for the cached build:
 * written only where it lacks a file with this build's content, the files kept from the output
 * hard-linked. Publishing does nothing when the output already holds exactly this build's files;
 * otherwise the spare, completed, is swapped in and the old output kept as the next spare. A
 * failed build leaves the spare as it is, its changed files no longer matching their records.
 */
export function spareFolder(outDir: string, previous: PreviousBuild): OutputFolder {
  const dir = cachedStaging(outDir);
  return {
    dir,
    held: previous.spareFiles,
    publish(plan, records) {
      const spareDir = spareDirOf(outDir);
      if (previous.outFiles.holds(plan.files, plan.written)) {
        // Nothing to publish. The spare may have been written into (a page rendered again because a
        // string it reads changed, with the same HTML): its record then says what it holds now.
        const spare = keepRecord(spareDir, previous.spareFiles, new Map([...plan.written].map((file) => [file, plan.files.get(file)!])));
        const out = keepRecord(outDir, previous.outFiles)!;
        writeManifest(outDir, { out, spare, ...records });
        return { written: 0, out };
      }
      const written = plan.finish();
      swapWithSpare(outDir);
      // A file this build did not write is as the spare held it; one it linked, as the output held it.
      const known = (file: string) => {
        if (!plan.written.has(file)) return previous.spareFiles.trusted(file);
        return plan.linked.get(file) === join(outDir, file) ? previous.outFiles.trusted(file) : undefined;
      };
      const out = recordFolder(outDir, plan.files, known);
      // The output replaced is the next spare. The first build has none: a spare of links to its
      // output, so that the next build (one string changed) writes only what changed. (An output
      // replaced without a record stays the spare: deleting it and linking anew cost a whole build
      // of the scaling site 0.5 s, as much as the next build saves.)
      const spare = keepRecord(spareDir, previous.outFiles) ?? linkedSpare(outDir, out);
      writeManifest(outDir, { out, spare, ...records });
      return { written, out };
    },
    discard: () => {},
  };
}
