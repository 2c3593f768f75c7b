import { PageHeader } from '../layout/PageHeader.tsx';
import { usePage } from '../page-context.tsx';
import { CtaBanner } from '../sections/CtaBanner.tsx';
import { Icon } from '../ui/Icon.tsx';

/**
 * The solutions page: one card per industry page, the Markdown pages whose front matter says
 * `nav: solutions`, each with its link text and description, then the call to action. A content
 * maintainer adds an industry by adding such a page; until there is one, a sentence says so.
 */
export function SolutionsPage() {
  const { lang, t, routes } = usePage();
  const industries = routes.placedLinks('solutions', lang);
  return (
    <>
      <PageHeader title={t('solutions.title')}>
        <p>{t('solutions.intro')}</p>
      </PageHeader>
      <div className="mx-auto max-w-6xl px-4 py-14 sm:px-6 sm:py-20 lg:px-8">
        {industries.length === 0 ? (
          <p className="max-w-3xl text-lg leading-relaxed text-slate-600">{t('solutions.empty')}</p>
        ) : (
          <ul className="grid gap-6 md:grid-cols-2">
            {industries.map((industry) => (
              // The heading's link covers the whole card, so the card is one target with one name.
              <li key={industry.page} className="relative flex flex-col rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 hover:ring-teal-600 sm:p-8">
                <h2 className="text-2xl font-bold tracking-tight text-navy-900">
                  <a href={industry.href} className="rounded after:absolute after:inset-0 after:rounded-2xl after:content-['']">
                    {industry.label}
                  </a>
                </h2>
                <p className="mt-3 flex-1 leading-relaxed text-slate-600">{industry.description}</p>
                <Icon name="arrow" className="mt-6 h-5 w-5 text-teal-700" />
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="pb-20">
        <CtaBanner />
      </div>
    </>
  );
}
