import type { HeadLink, SocialMeta } from '../../cli/site/head/head.ts';
import { ICONS, MANIFEST_PATH, THEME } from '../../cli/site/asset-paths.ts';
import type { Lang } from '../../cli/site/languages.ts';

/** The classes of every page's body element (the critical CSS keeps their rules too). */
export const BODY_CLASS = 'min-h-screen bg-white font-sans text-slate-800 antialiased';

export interface DocumentProps {
  lang: Lang;
  title: string;
  description: string;
  /** Absolute canonical URL, or null for pages that must not be indexed (404). */
  canonical: string | null;
  alternates: HeadLink[];
  /** Open Graph and Twitter card tags (see `socialMetaTags`). */
  social: readonly SocialMeta[];
  /** The page's structured data (schema.org JSON-LD, already serialised for a script element). */
  jsonLd: string;
  /** The rules of the stylesheet this page's markup uses, inlined so the first render needs no other request. */
  criticalCss: string;
  /** A small classic script run before the page renders (the 404 pages' wrong-case redirect). */
  headScript?: string;
  /** The rendered body: the page in its layout, then `<BodyEnd>`. */
  body: string;
}

/**
 * The full HTML document around a page — head metadata, sharing previews, icons, the page's
 * critical CSS — with the body rendered beforehand (its markup decides which CSS is critical).
 */
export function Document({ lang, title, description, canonical, alternates, social, jsonLd, criticalCss, headScript, body }: DocumentProps) {
  return (
    <html lang={lang} dir="ltr">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title}</title>
        <meta name="description" content={description} />
        {canonical ? <link rel="canonical" href={canonical} /> : <meta name="robots" content="noindex" />}
        {alternates.map((a) => (
          <link key={a.hreflang} rel="alternate" hrefLang={a.hreflang} href={a.href} />
        ))}
        {social.map((tag, i) => ('property' in tag ? <meta key={i} property={tag.property} content={tag.content} /> : <meta key={i} name={tag.name} content={tag.content} />))}
        <meta name="theme-color" content={THEME.themeColor} />
        <link rel="icon" href={ICONS.favicon} sizes="32x32" />
        <link rel="icon" href={ICONS.svg} type="image/svg+xml" />
        <link rel="apple-touch-icon" href={ICONS.appleTouch} />
        <link rel="manifest" href={MANIFEST_PATH} />
        <style dangerouslySetInnerHTML={{ __html: criticalCss }} />
        <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonLd }} />
        {headScript && <script dangerouslySetInnerHTML={{ __html: headScript }} />}
      </head>
      <body className={BODY_CLASS} dangerouslySetInnerHTML={{ __html: body }} />
    </html>
  );
}
