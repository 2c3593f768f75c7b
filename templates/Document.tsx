import type { ReactNode } from 'react';
import { LOCALES } from '../cli/languages.ts';
import type { HeadLink } from '../cli/head.ts';
import { usePage } from './page-context.tsx';

export interface DocumentProps {
  title: string;
  description: string;
  /** Absolute canonical URL, or null for pages that must not be indexed (404). */
  canonical: string | null;
  alternates: HeadLink[];
  stylesheet: string;
  children: ReactNode;
}

/** The full HTML document around a page: head metadata, stylesheet, body. */
export function Document({ title, description, canonical, alternates, stylesheet, children }: DocumentProps) {
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
        <meta property="og:locale" content={LOCALES[lang]} />
        <meta name="theme-color" content="#0b1f3a" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <link rel="stylesheet" href={stylesheet} />
      </head>
      <body className="min-h-screen bg-white font-sans text-slate-800 antialiased">{children}</body>
    </html>
  );
}
