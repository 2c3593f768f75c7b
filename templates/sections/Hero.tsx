import { homeAnchor } from '../../cli/site/routes.ts';
import { Icon } from '../ui/Icon.tsx';
import { usePage } from '../page-context.tsx';
import { usePageContactLink } from '../forms/use-contact-link.ts';
import { PRIMARY_BUTTON } from '../ui/button-classes.ts';
import { MaskingTable } from '../visuals/MaskingTable.tsx';
import { heroPartClass } from './stagger.ts';

/**
 * The home page's hero: headline, subtitle, schedule-demo button (to the demo request page), in
 * three parts that move into place at 0.1, 0.2 and 0.3 s (transform only: nothing waits to be seen).
 */
export function Hero() {
  const { lang, t } = usePage();
  const contactLink = usePageContactLink();
  return (
    <section className="relative overflow-hidden bg-navy-950 text-white">
      <div className="absolute inset-0 bg-[radial-gradient(ellipse_at_top_right,rgba(20,184,166,0.25),transparent_55%)]" />
      <div className="relative mx-auto grid max-w-6xl items-center gap-12 px-4 py-16 sm:px-6 md:py-24 lg:grid-cols-[1.1fr_1fr] lg:px-8">
        <div>
          <div data-hero-part="1" className={heroPartClass(1)}>
            <p className="inline-flex items-center gap-2 rounded-full bg-teal-400/10 px-3 py-1 text-sm font-medium text-teal-200 ring-1 ring-teal-400/30">
              <Icon name="shield" className="h-4 w-4" />
              {t('hero.eyebrow')}
            </p>
            <h1 className="mt-5 text-4xl font-bold tracking-tight text-balance sm:text-5xl lg:text-[3.4rem] lg:leading-[1.08]">
              {t('hero.title')}
            </h1>
          </div>
          <p data-hero-part="2" className={`mt-6 max-w-xl text-lg leading-relaxed text-slate-300 ${heroPartClass(2)}`}>{t('hero.subtitle')}</p>
          <div data-hero-part="3" className={`mt-8 flex flex-wrap gap-3 ${heroPartClass(3)}`}>
            <a href={contactLink('demo')} className={`${PRIMARY_BUTTON} inline-flex items-center gap-2 rounded-lg px-5 py-3`}>
              {t('hero.cta')}
              <Icon name="arrow" className="h-5 w-5" />
            </a>
            <a
              href={homeAnchor('home', lang, 'features')}
              className="inline-flex items-center rounded-lg px-5 py-3 font-semibold text-white ring-1 ring-white/25 hover:bg-white/10"
            >
              {t('hero.secondary')}
            </a>
          </div>
        </div>
        <MaskingTable />
      </div>
    </section>
  );
}
