import { pathFor } from '../../cli/site/routes.ts';
import { usePage } from '../page-context.tsx';

/** The 404 page of a language: the error heading, the status and a way back home. */
export function NotFoundPage() {
  const { lang, t } = usePage();
  return (
    <div className="mx-auto flex max-w-3xl flex-col items-start px-4 py-24 sm:px-6 sm:py-32 lg:px-8">
      <p className="rounded-full bg-rose-50 px-3 py-1 text-sm font-semibold text-rose-800 ring-1 ring-rose-200">{t('notFound.status')}</p>
      <h1 className="mt-5 text-4xl font-bold tracking-tight text-navy-900 sm:text-5xl">{t('notFound.heading')}</h1>
      <p className="mt-5 text-lg text-slate-600">{t('notFound.text')}</p>
      <a href={pathFor('home', lang)} className="mt-8 inline-flex rounded-lg bg-teal-700 px-5 py-3 font-semibold text-white hover:bg-teal-800">
        {t('notFound.back')}
      </a>
    </div>
  );
}
