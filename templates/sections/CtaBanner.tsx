import { Icon } from '../ui/Icon.tsx';
import { usePage } from '../page-context.tsx';
import { usePageContactLink } from '../forms/use-contact-link.ts';
import { PRIMARY_BUTTON } from '../ui/button-classes.ts';

/** The call-to-action banner with the contact-sales button (to the sales contact page), on the content grid. */
export function CtaBanner() {
  const { t } = usePage();
  const contactLink = usePageContactLink();
  return (
    // The padding sits outside the box, as on every section's grid, so the banner's edges are the content's.
    <section aria-labelledby="cta-title" className="mx-auto max-w-6xl px-4 sm:px-6 lg:px-8">
      <div className="relative flex flex-col items-start gap-6 overflow-hidden rounded-3xl bg-navy-950 px-6 py-10 text-white sm:px-12 sm:py-12 md:flex-row md:items-center md:justify-between">
        <div aria-hidden="true" className="absolute inset-0 bg-[radial-gradient(ellipse_at_bottom_left,rgba(20,184,166,0.3),transparent_60%)]" />
        <div className="relative max-w-2xl">
          <h2 id="cta-title" className="text-3xl font-bold tracking-tight">{t('cta.title')}</h2>
          <p className="mt-3 text-lg text-slate-300">{t('cta.subtitle')}</p>
        </div>
        <a href={contactLink('sales')} className={`${PRIMARY_BUTTON} relative inline-flex shrink-0 items-center gap-2 rounded-lg px-6 py-3`}>
          {t('cta.button')}
          <Icon name="arrow" className="h-5 w-5" />
        </a>
      </div>
    </section>
  );
}
