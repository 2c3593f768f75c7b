/**
 * The fixed URLs and sizes of the site's generated files, shared by the templates that link them
 * (the document head) and the asset stages that write them.
 */

/** The icon files every build writes at the site root. */
export const ICONS = {
  favicon: '/favicon.ico',
  svg: '/favicon.svg',
  appleTouch: '/apple-touch-icon.png',
  any192: '/icon-192.png',
  any512: '/icon-512.png',
  maskable512: '/icon-maskable-512.png',
} as const;

/** Where the web app manifest is served; every page links it. */
export const MANIFEST_PATH = '/manifest.webmanifest';

/** Where the security contact file (RFC 9116) is served; hosts answer it as `text/plain; charset=utf-8`. */
export const SECURITY_TXT_PATH = '/.well-known/security.txt';

/** The colours the manifest and the `theme-color` meta share. */
export const THEME = { themeColor: '#0b1f3a', backgroundColor: '#ffffff' } as const;

/** The size of the sharing images, which Open Graph and Twitter cards show without cropping. */
export const SOCIAL_IMAGE = { width: 1200, height: 630 } as const;
