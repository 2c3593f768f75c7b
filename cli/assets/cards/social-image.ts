import { SOCIAL_IMAGE } from '../../site/asset-paths.ts';
import { appIconSvg } from '../favicon.ts';


/** What one language's sharing image says. */
export interface SocialImageText {
  brand: string;
  /** The headline, e.g. the home page's hero title. */
  title: string;
  /** The small line above the footer, e.g. the hero's eyebrow. */
  tagline: string;
  /** The site's host name, bottom right. */
  host: string;
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Approximate advance widths (in em) of a bold sans-serif, enough to wrap a headline. */
function textWidth(text: string, fontSize: number): number {
  let em = 0;
  for (const c of text) {
    if (/[ilIjtfr.,:;'!|]/.test(c)) em += 0.3;
    else if (c === ' ') em += 0.28;
    else if (/[mwMW]/.test(c)) em += 0.89;
    else if (/[A-Z]/.test(c)) em += 0.7;
    else em += 0.58;
  }
  return em * fontSize;
}

/**
 * Breaks a headline into lines no wider than `maxWidth` at `fontSize`.
 *
 * @example wrapText('Protect sensitive data in every copy of your database', 64, 1000)
 * // ['Protect sensitive data in every', 'copy of your database']
 */
export function wrapText(text: string, fontSize: number, maxWidth: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (line && textWidth(candidate, fontSize) > maxWidth) {
      lines.push(line);
      line = word;
    } else line = candidate;
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * The sharing image of one language as SVG (1200×630): the brand, the headline in the page's
 * language, the tagline and the host, on the site's navy with a teal glow. The headline shrinks
 * until it fits in three lines.
 */
export function socialImageSvg({ brand, title, tagline, host }: SocialImageText): string {
  const { width, height } = SOCIAL_IMAGE;
  let fontSize = 68;
  let lines = wrapText(title, fontSize, 1040);
  while (lines.length > 3 && fontSize > 40) {
    fontSize -= 4;
    lines = wrapText(title, fontSize, 1040);
  }
  const lineHeight = Math.round(fontSize * 1.15);
  // The tagline shares the bottom line with the host name: it shrinks rather than run into it.
  let taglineSize = 30;
  while (textWidth(tagline, taglineSize) > 740 && taglineSize > 18) taglineSize -= 2;
  const top = 330 - ((lines.length - 1) * lineHeight) / 2;
  const font = 'font-family="Liberation Sans, Arial, DejaVu Sans, sans-serif"';
  const icon = appIconSvg(72, 'rounded').replace('<svg ', '<svg x="80" y="64" ');
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    '<defs><radialGradient id="glow" cx="1" cy="0" r="0.9"><stop offset="0" stop-color="#14b8a6" stop-opacity="0.35"/><stop offset="1" stop-color="#14b8a6" stop-opacity="0"/></radialGradient></defs>',
    `<rect width="${width}" height="${height}" fill="#06142a"/>`,
    `<rect width="${width}" height="${height}" fill="url(#glow)"/>`,
    icon,
    `<text x="172" y="113" ${font} font-weight="700" font-size="40" fill="#ffffff">${escapeXml(brand)}</text>`,
    ...lines.map((line, i) => `<text x="80" y="${Math.round(top + i * lineHeight)}" ${font} font-weight="700" font-size="${fontSize}" fill="#ffffff">${escapeXml(line)}</text>`),
    `<rect x="80" y="520" width="64" height="6" rx="3" fill="#2dd4bf"/>`,
    `<text x="80" y="574" ${font} font-weight="700" font-size="${taglineSize}" fill="#99f6e4">${escapeXml(tagline)}</text>`,
    `<text x="1120" y="574" ${font} font-size="26" fill="#cbd5e1" text-anchor="end">${escapeXml(host)}</text>`,
    '</svg>',
  ].join('');
}
