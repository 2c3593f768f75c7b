import type { ReactNode } from 'react';
import { pathFor } from '../../cli/site/routes.ts';
import { PageHeader } from '../layout/PageHeader.tsx';
import { usePage } from '../page-context.tsx';
import { CtaBanner } from '../sections/CtaBanner.tsx';
import { Icon } from '../ui/Icon.tsx';

/** One card of a list: the heading's link covers the whole card, so the card is one target with one name. */
function Card({ href, label, description, size }: { href: string; label: string; description: string; size: 'large' | 'small' }) {
  return (
    <li className="relative flex flex-col rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 hover:ring-teal-600 sm:p-7">
      <h3 className={`${size === 'large' ? 'text-2xl' : 'text-xl'} font-bold tracking-tight text-navy-900`}>
        <a href={href} className="rounded after:absolute after:inset-0 after:rounded-2xl after:content-['']">
          {label}
        </a>
      </h3>
      <p className="mt-3 flex-1 leading-relaxed text-slate-600">{description}</p>
      <Icon name="arrow" className="mt-6 h-5 w-5 text-teal-700" />
    </li>
  );
}

/** A titled list of the solutions page, labelled by its heading. */
function Group({ id, title, intro, children }: { id: string; title: string; intro?: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="text-3xl font-bold tracking-tight text-navy-900">{title}</h2>
      {intro && <p className="mt-3 max-w-3xl text-lg leading-relaxed text-slate-600">{intro}</p>}
      {children}
    </section>
  );
}

/**
 * The solutions page: a card per sector or role (the Markdown pages whose front matter says
 * `nav: solutions`), a link to how the product works, then a card per regulation (`nav:
 * regulations`), each card with its link text and description, then the call to action. A content
 * maintainer adds a sector or a regulation by adding such a page; until there is a sector, a
 * sentence says so, and a language without regulation pages shows no such list.
 */
export function SolutionsPage() {
  const { lang, t, routes } = usePage();
  const audiences = routes.placedLinks('solutions', lang);
  const regulations = routes.placedLinks('regulations', lang);
  return (
    <>
      <PageHeader title={t('solutions.title')}>
        <p>{t('solutions.intro')}</p>
      </PageHeader>
      <div className="mx-auto max-w-6xl space-y-16 px-4 py-14 sm:space-y-20 sm:px-6 sm:py-20 lg:px-8">
        <Group id="audiences" title={t('solutions.audiencesTitle')}>
          {audiences.length === 0 ? (
            <p className="mt-6 max-w-3xl text-lg leading-relaxed text-slate-600">{t('solutions.empty')}</p>
          ) : (
            <ul className="mt-8 grid gap-6 md:grid-cols-2 lg:grid-cols-3">
              {audiences.map((link) => <Card key={link.page} href={link.href} label={link.label} description={link.description} size="large" />)}
            </ul>
          )}
          <p className="mt-8">
            <a href={pathFor('howItWorks', lang)} className="inline-flex items-center gap-2 rounded font-semibold text-teal-700 hover:text-teal-900">
              {t('solutions.howItWorksLink')}
              <Icon name="arrow" className="h-5 w-5 shrink-0" />
            </a>
          </p>
        </Group>
        {regulations.length > 0 && (
          <Group id="regulations" title={t('solutions.regulationsTitle')} intro={t('solutions.regulationsIntro')}>
            <ul className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
              {regulations.map((link) => <Card key={link.page} href={link.href} label={link.label} description={link.description} size="small" />)}
            </ul>
          </Group>
        )}
      </div>
      <div className="pb-20">
        <CtaBanner />
      </div>
    </>
  );
}
