import { relative, sep } from 'node:path';
import { watch } from 'chokidar';
import type { ChangedFile } from './change-effects.ts';

/** How long the watcher waits after a change for more before reporting (an editor's save can be several writes). */
const QUIET_MS = 15;

/** The files of each folder that sitegen reads; anything else (editor swap and backup files) is not a change. */
const SOURCE_FILE = { content: /\.(json|md)$/, templates: /\.(tsx?|css|js)$/ } as const;

/** Whether a path is an editor's scratch file or a hidden one (`.de.json.swp`, `de.json~`, `4913`). */
function isScratch(path: string): boolean {
  const name = path.split(sep).pop() ?? '';
  return name.startsWith('.') || name.endsWith('~') || /^\d+$/.test(name);
}

/**
 * Watches the content and templates folders (chokidar: inotify on Linux, FSEvents on macOS) and
 * calls `onChange` with the source files added, changed or removed, a batch per save.
 * Returns the function that stops watching.
 */
export function watchSources(folders: { content: string; templates: string }, onChange: (changes: ChangedFile[]) => void): { ready: Promise<void>; close: () => Promise<void> } {
  let batch = new Map<string, ChangedFile>();
  let timer: NodeJS.Timeout | undefined;
  const watcher = watch([folders.content, folders.templates], {
    ignoreInitial: true,
    ignored: (path, stats) => isScratch(path) || (stats?.isFile() === true && !/\.(json|md|tsx?|css|js)$/.test(path)),
  });
  const changed = (path: string) => {
    for (const area of ['content', 'templates'] as const) {
      const inside = relative(folders[area], path);
      if (inside.startsWith('..') || !SOURCE_FILE[area].test(inside)) continue;
      const file = { area, path: inside.split(sep).join('/') };
      batch.set(`${area}:${file.path}`, file);
      clearTimeout(timer);
      timer = setTimeout(() => {
        const changes = [...batch.values()];
        batch = new Map();
        onChange(changes);
      }, QUIET_MS);
      return;
    }
  };
  watcher.on('add', changed).on('change', changed).on('unlink', changed);
  return {
    ready: new Promise((resolve) => watcher.once('ready', () => resolve())),
    close: async () => {
      clearTimeout(timer);
      await watcher.close();
    },
  };
}
