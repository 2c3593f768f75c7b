import { homeAnchor } from '../../cli/site/routes.ts';
import { Icon } from '../ui/Icon.tsx';
import { usePage } from '../page-context.tsx';
import { contactLink } from '../forms/contact-link.ts';

const SAMPLE_ROWS = [
  ['María García', 'maria.garcia@…', '4539 •••• •••• 1024'],
  ['John Smith', 'j.smith@…', '5412 •••• •••• 8811'],
  ['Anna Müller', 'a.mueller@…', '3714 •••• •••• 0005'],
] as const;

const MASKED_ROWS = [
  ['Lucía Romero', 'user_7f3a@example.org', '4539 8270 1164 5592'],
  ['Peter Hall', 'user_19c2@example.org', '5412 0937 4418 2270'],
  ['Eva Brandt', 'user_b81e@example.org', '3714 496353 98431'],
] as const;

/** An illustration of a masked table: realistic values, none of them real. Decorative only. */
function MaskedTablePreview() {
  return (
    <div aria-hidden="true" className="relative rounded-2xl border border-white/10 bg-navy-900/80 p-4 shadow-2xl">
      <div className="mb-3 flex items-center gap-1.5">
        <span className="h-2.5 w-2.5 rounded-full bg-rose-400" />
        <span className="h-2.5 w-2.5 rounded-full bg-amber-400" />
        <span className="h-2.5 w-2.5 rounded-full bg-emerald-400" />
        <span className="ml-3 font-mono text-xs text-slate-300">SELECT * FROM customers;</span>
      </div>
      <div className="space-y-2 font-mono text-xs sm:text-[13px]">
        {MASKED_ROWS.map((row, i) => (
          <div key={row[0]} className="grid grid-cols-[1fr_1.3fr] gap-3 rounded-lg bg-white/5 px-3 py-2 sm:grid-cols-3">
            <span className="text-slate-100">{row[0]}</span>
            <span className="truncate text-teal-300">{row[1]}</span>
            <span className="hidden text-slate-300 sm:block">{row[2]}</span>
            <span className="col-span-2 text-[11px] text-slate-400 line-through decoration-rose-400/70 sm:col-span-3">
              {SAMPLE_ROWS[i]?.join(' · ')}
            </span>
          </div>
        ))}
      </div>
    </div>
  );
}

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
          <p className="mt-8 flex items-center gap-2 text-sm text-slate-400">
            <Icon name="database" className="h-4 w-4" />
            {t('hero.trust')}
          </p>
        </div>
        <MaskedTablePreview />
      </div>
    </section>
  );
}
