import { ICONS, THEME } from '../site/asset-paths.ts';

/**
 * The web app manifest: the site's name and description, its start URL, colours and the app
 * icons (192 and 512 px, and a maskable 512 px one with the mark inside the safe zone).
 *
 * @example JSON.parse(webManifest({ name: 'MaskWise', description: '…', lang: 'en' })).icons.length // 3
 */
export function webManifest({ name, description, lang }: { name: string; description: string; lang: string }): string {
  return `${JSON.stringify(
    {
      name,
      short_name: name,
      description,
      lang,
      start_url: '/',
      scope: '/',
      display: 'browser',
      theme_color: THEME.themeColor,
      background_color: THEME.backgroundColor,
      icons: [
        { src: ICONS.any192, sizes: '192x192', type: 'image/png', purpose: 'any' },
        { src: ICONS.any512, sizes: '512x512', type: 'image/png', purpose: 'any' },
        { src: ICONS.maskable512, sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      ],
    },
    null,
    2,
  )}\n`;
}
