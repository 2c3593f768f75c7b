import type { ReactNode } from 'react';
import type { HeadLink, SocialMeta } from '../../cli/site/head.ts';
import { ICONS, MANIFEST_PATH, THEME } from '../../cli/site/asset-paths.ts';
import { usePage } from '../page-context.tsx';

export interface DocumentProps {
  title: string;
  description: string;
  /** Absolute canonical URL, or null for pages that must not be indexed (404). */
  canonical: string | null;
  alternates: HeadLink[];
  /** Open Graph and Twitter card tags (see `socialMetaTags`). */
  social: readonly SocialMeta[];
  /** Structured data (JSON-LD, already serialised for a script element), on the pages that carry it. */
  jsonLd?: string;
  stylesheet: string;
  children: ReactNode;
}

/** The full HTML document around a page: head metadata, sharing previews, icons, stylesheet, body. */
export function Document({ title, description, canonical, alternates, social, jsonLd, stylesheet, children }: DocumentProps) {
  const { lang } = usePage();
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
        <link rel="stylesheet" href={stylesheet} />
        {jsonLd && <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonLd }} />}
      </head>
      <body className="min-h-screen bg-white font-sans text-slate-800 antialiased">{children}</body>
    </html>
  );
}
