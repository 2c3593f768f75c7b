import { closeSync, openSync, readSync } from 'node:fs';

/**
 * The pixel size a PNG file states in its header (its IHDR chunk: the first 24 bytes), or
 * undefined for a file that is not a PNG or cannot be read.
 *
 * @example pngSize('dist/assets/social/de/3f43db3d60cfe4d6.png') // { width: 1200, height: 630 }
 */
export function pngSize(path: string): { width: number; height: number } | undefined {
  const header = Buffer.alloc(24);
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    if (readSync(fd, header, 0, 24, 0) < 24) return undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  if (header.toString('latin1', 1, 4) !== 'PNG' || header.toString('latin1', 12, 16) !== 'IHDR') return undefined;
  return { width: header.readUInt32BE(16), height: header.readUInt32BE(20) };
}
