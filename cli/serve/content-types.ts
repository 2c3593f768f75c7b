import { extname } from 'node:path';

/** By extension; a Map, since the extension comes from a request's URL (an object would answer `.constructor`'s lookup… with `constructor`). */
const CONTENT_TYPES: ReadonlyMap<string, string> = new Map([
  ['.html', 'text/html; charset=utf-8'],
  ['.css', 'text/css; charset=utf-8'],
  ['.js', 'text/javascript; charset=utf-8'],
  ['.json', 'application/json; charset=utf-8'],
  ['.svg', 'image/svg+xml'],
  ['.png', 'image/png'],
  ['.ico', 'image/x-icon'],
  ['.xml', 'application/xml; charset=utf-8'],
  ['.txt', 'text/plain; charset=utf-8'],
  ['.webmanifest', 'application/manifest+json'],
]);

/**
 * The Content-Type of a file the local servers send, by its extension.
 *
 * @example contentTypeOf('assets/styles.3f2a.css') // 'text/css; charset=utf-8'
 */
export function contentTypeOf(file: string): string {
  return CONTENT_TYPES.get(extname(file)) ?? 'application/octet-stream';
}
