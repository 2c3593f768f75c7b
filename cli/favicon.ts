/** The favicon: the brand mark (a teal tile with a white mask) as SVG. */
export function faviconSvg(): string {
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">',
    '<rect width="32" height="32" rx="8" fill="#0d9488"/>',
    '<path d="M7 11c3-1 6-1.5 9-1.5s6 .5 9 1.5c0 6.5-3.5 10.5-9 11.5C10.5 21.5 7 17.5 7 11z" fill="#fff"/>',
    '<path d="M11 14.5h3.5M17.5 14.5H21" stroke="#0f766e" stroke-width="2" stroke-linecap="round"/>',
    '</svg>',
    '',
  ].join('');
}
