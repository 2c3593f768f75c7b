/** The brand mark's shapes on a 32×32 grid: a white mask with two eye slits. */
const MARK = [
  '<path d="M7 11c3-1 6-1.5 9-1.5s6 .5 9 1.5c0 6.5-3.5 10.5-9 11.5C10.5 21.5 7 17.5 7 11z" fill="#fff"/>',
  '<path d="M11 14.5h3.5M17.5 14.5H21" stroke="#0f766e" stroke-width="2" stroke-linecap="round"/>',
].join('');

/** The brand's teal, the tile behind the mark. */
const BRAND_TEAL = '#0d9488';

/** The favicon: the brand mark (a teal tile with a white mask) as SVG. */
export function faviconSvg(): string {
  return ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">', `<rect width="32" height="32" rx="8" fill="${BRAND_TEAL}"/>`, MARK, '</svg>', ''].join('');
}

/**
 * The brand mark as an app icon of `size` pixels: rounded like the favicon, or full-bleed for
 * platforms that round it themselves (apple-touch-icon), or with the mark inside the central 80 %
 * safe zone for a maskable icon.
 *
 * @example appIconSvg(512, 'maskable') // '<svg … width="512" height="512">…</svg>'
 */
export function appIconSvg(size: number, shape: 'rounded' | 'square' | 'maskable'): string {
  const tile = shape === 'rounded' ? `<rect width="32" height="32" rx="8" fill="${BRAND_TEAL}"/>` : `<rect width="32" height="32" fill="${BRAND_TEAL}"/>`;
  const mark = shape === 'maskable' ? `<g transform="translate(16 16) scale(0.75) translate(-16 -16)">${MARK}</g>` : MARK;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32" width="${size}" height="${size}">${tile}${mark}</svg>`;
}

/**
 * An ICO file holding PNG images (one per size), as every browser reads `/favicon.ico`.
 *
 * @example icoFromPngs([{ size: 16, png }, { size: 32, png: png32 }]) // Buffer starting 00 00 01 00 02 00
 */
export function icoFromPngs(images: readonly { size: number; png: Buffer }[]): Buffer {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = 6 + 16 * images.length;
  const entries = images.map(({ size, png }) => {
    const entry = Buffer.alloc(16);
    entry.writeUInt8(size >= 256 ? 0 : size, 0);
    entry.writeUInt8(size >= 256 ? 0 : size, 1);
    entry.writeUInt16LE(1, 4); // colour planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(png.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += png.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...images.map((i) => i.png)]);
}
