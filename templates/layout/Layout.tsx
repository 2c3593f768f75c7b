import type { ReactNode } from 'react';
import { usePage } from '../page-context.tsx';
import { Footer } from './Footer.tsx';
import { Header } from './Header.tsx';

/** The page frame shared by every page: skip link, header, main content, footer. */
export function Layout({ children }: { children: ReactNode }) {
  const { t } = usePage();
  return (
    <>
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-navy-900 px-4 py-2 font-semibold text-white focus:not-sr-only focus:fixed focus:left-4 focus:top-4"
      >
        {t('meta.skipToContent')}
      </a>
      <Header />
      <main id="main" tabIndex={-1} className="focus:outline-none">
        {children}
      </main>
      <Footer />
    </>
  );
}
