import { Icon } from '../ui/Icon.tsx';
import { usePage } from '../page-context.tsx';
import { contactLink } from '../forms/contact-link.ts';

/** The call-to-action banner with the contact-sales button (to the contact form, as a sales question), on the content grid. */
export function CtaBanner() {
  const { lang, t } = usePage();
  return (
    // The padding sits outside the box, as on every section's grid, so the banner's edges are the content's.
    <section aria-labelledby="cta-title" className="mx-auto max-w-6xl px-4 sm:px-6 lg:px-8">
      <div className="flex flex-col items-start gap-6 rounded-3xl bg-gradient-to-br from-teal-700 to-navy-900 px-8 py-12 text-white sm:px-12 md:flex-row md:items-center md:justify-between">
        <div className="max-w-2xl">
          <h2 id="cta-title" className="text-3xl font-bold tracking-tight">{t('cta.title')}</h2>
          <p className="mt-3 text-lg text-teal-50">{t('cta.subtitle')}</p>
        </div>
        <a
          href={contactLink(lang, 'sales')}
          className="inline-flex shrink-0 items-center gap-2 rounded-lg bg-white px-6 py-3 font-semibold text-navy-900 shadow-lg hover:bg-teal-50"
        >
          {t('cta.button')}
          <Icon name="arrow" className="h-5 w-5" />
        </a>
      </div>
    </section>
  );
}
