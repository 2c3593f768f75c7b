import { notFoundPath, pathFor } from '../../cli/site/routes.ts';
import { contactLink } from '../forms/contact-link.ts';
import { usePage } from '../page-context.tsx';
import { Icon } from '../ui/Icon.tsx';
import { RichText } from '../ui/RichText.tsx';
import { PRIMARY_BUTTON } from '../ui/button-classes.ts';

/**
 * The 404 page of a language (served with status 404): says the page was not found, what to do
 * next, and links to the main pages and to the contact form to report a broken link.
 */
export function NotFoundPage() {
  const { lang, t } = usePage();
  const pages = [
    { href: pathFor('about', lang), label: t('nav.about') },
    { href: pathFor('contact', lang), label: t('nav.contact') },
    { href: pathFor('privacy', lang), label: t('footer.privacy') },
    { href: pathFor('legalNotice', lang), label: t('footer.legalNotice') },
  ];
  return (
    <div className="mx-auto flex max-w-3xl flex-col items-start px-4 py-20 sm:px-6 sm:py-28 lg:px-8">
      <p className="rounded-full bg-rose-50 px-3 py-1 text-sm font-semibold text-rose-800 ring-1 ring-rose-200">{t('notFound.status')}</p>
      <h1 className="mt-5 text-3xl font-bold tracking-tight text-balance text-navy-900 sm:text-5xl">{t('notFound.heading')}</h1>
      <p className="mt-5 text-lg text-slate-600">{t('notFound.text')}</p>
      <a href={pathFor('home', lang)} className={`${PRIMARY_BUTTON} mt-8 inline-flex items-center gap-2 rounded-lg px-5 py-3`}>
        {t('notFound.back')}
        <Icon name="arrow" className="h-5 w-5" />
      </a>
      <nav aria-labelledby="not-found-links" className="mt-10 w-full">
        <h2 id="not-found-links" className="text-sm font-semibold uppercase tracking-wider text-slate-600">{t('notFound.linksTitle')}</h2>
        <ul className="mt-3 grid gap-2 sm:grid-cols-2">
          {pages.map((page) => (
            <li key={page.href}>
              <a href={page.href} className="block rounded-lg px-4 py-3 font-medium text-navy-900 ring-1 ring-slate-200 hover:bg-slate-50 hover:ring-slate-300">
                {page.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <p className="mt-10 text-slate-600">
        <RichText
          text={t('notFound.report')}
          tags={{ contact: (text) => <a href={contactLink(lang, 'general', notFoundPath(lang))} className="font-medium text-teal-700 underline underline-offset-2">{text}</a> }}
        />
      </p>
    </div>
  );
}
