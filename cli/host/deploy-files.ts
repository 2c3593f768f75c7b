/**
 * The deployment configuration that only the operator's own server reads (today the nginx server
 * block), kept out of the published folder: a static host (Netlify, Cloudflare Pages) serves every
 * file of `dist/`, and would show anyone the internal ports and paths. It goes to a folder beside
 * the output, named after it: `dist/` → `dist-deploy/`, `--out /srv/site` → `/srv/site-deploy/`.
 *
 *   writeDeployFiles('/srv/site', { 'nginx.conf': text }) // → /srv/site-deploy/nginx.conf, written only when it differs
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** The deployment folder of an output folder: beside it, its name with `-deploy`. */
export function deployDirOf(outDir: string): string {
  return join(dirname(outDir), `${basename(outDir)}-deploy`);
}

/** Writes the deployment files of a build (name → text) into the deployment folder, each that differs from what is there, whole (a rename); returns how many were written. */
export function writeDeployFiles(outDir: string, files: Readonly<Record<string, string>>): number {
  const dir = deployDirOf(outDir);
  let written = 0;
  for (const [name, text] of Object.entries(files)) {
    const path = join(dir, name);
    let current: string | null = null;
    try {
      current = readFileSync(path, 'utf8');
    } catch {
      // not there yet
    }
    if (current === text) continue;
    mkdirSync(dir, { recursive: true });
    writeFileSync(`${path}.${process.pid}`, text);
    renameSync(`${path}.${process.pid}`, path);
    written++;
  }
  return written;
}

/** The digest of the deployment folder's files (names, sizes, times), '' when there is none: the build record's check that they are as the last build left them. */
export function deployFilesState(outDir: string): string {
  const dir = deployDirOf(outDir);
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return '';
  }
  const hash = createHash('sha256');
  for (const name of names) {
    const stat = statSync(join(dir, name));
    hash.update(`${name}\0${stat.size}\0${stat.mtimeMs}\0`);
  }
  return hash.digest('hex').slice(0, 32);
}
