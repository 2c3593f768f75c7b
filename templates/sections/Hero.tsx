import { homeAnchor } from '../../cli/site/routes.ts';
import { Icon } from '../ui/Icon.tsx';
import { usePage } from '../page-context.tsx';
import { contactLink } from '../forms/contact-link.ts';
import { MaskingTable } from '../visuals/MaskingTable.tsx';

/** The home page's hero: headline, subtitle, schedule-demo button (to the contact form, as a demo request). */
export function Hero() {
  const { lang, t } = usePage();
  return (
    <section className="relative overflow-hidden bg-navy-950 text-white">
      <div className="absolute inset-0 bg-[radial-gradient(ellipse_at_top_right,rgba(20,184,166,0.25),transparent_55%)]" />
      <div className="relative mx-auto grid max-w-6xl items-center gap-12 px-4 py-16 sm:px-6 md:py-24 lg:grid-cols-[1.1fr_1fr] lg:px-8">
        <div>
          <p className="inline-flex items-center gap-2 rounded-full bg-teal-400/10 px-3 py-1 text-sm font-medium text-teal-200 ring-1 ring-teal-400/30">
            <Icon name="shield" className="h-4 w-4" />
            {t('hero.eyebrow')}
          </p>
          <h1 className="mt-5 text-4xl font-bold tracking-tight text-balance sm:text-5xl lg:text-[3.4rem] lg:leading-[1.08]">
            {t('hero.title')}
          </h1>
          <p className="mt-6 max-w-xl text-lg leading-relaxed text-slate-300">{t('hero.subtitle')}</p>
          <div className="mt-8 flex flex-wrap gap-3">
            <a
              href={contactLink(lang, 'demo')}
              className="inline-flex items-center gap-2 rounded-lg bg-teal-500 px-5 py-3 font-semibold text-navy-950 shadow-lg shadow-teal-500/20 hover:bg-teal-400"
            >
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
