// The one module that turns a card's SVG into PNG bytes: resvg, and the fonts it is given. Its
// bytes, the SVG template's (social-image.ts and what it imports), the locked packages and the
// fonts make the hash that names every card (page-cards.ts): an edit here renames every card, an
// edit to the cache around it none. Plain JavaScript on purpose: card-thread.js draws with it in
// a worker thread, which starts without the TypeScript loader.

/** The fonts the cards are drawn with (Debian's fonts-liberation, which `sans-serif` is there): given to resvg by file, so the PNG does not depend on what else is installed. */
export const CARD_FONTS = ['/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf', '/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf'];

/**
 * Loads resvg (a native module: loaded only when a card is missing) and returns the function that
 * draws a card's SVG as PNG bytes.
 *
 * @returns {Promise<(svg: string) => Buffer>}
 */
export async function cardDrawer() {
  const { existsSync } = await import('node:fs');
  const { Resvg } = await import('@resvg/resvg-js');
  const fontFiles = CARD_FONTS.filter((file) => existsSync(file));
  const font = { fontFiles, loadSystemFonts: fontFiles.length === 0, defaultFontFamily: 'Liberation Sans' };
  return (svg) => Buffer.from(new Resvg(svg, { font }).render().asPng());
}
