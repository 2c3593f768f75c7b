import { Icon, type IconName } from '../ui/Icon.tsx';
import { usePage } from '../page-context.tsx';
import { CtaBanner } from '../sections/CtaBanner.tsx';
import { PageHeader } from '../layout/PageHeader.tsx';

/** The about page's groups of items: each item's key under the group's prefix, and its icon. */
const ABOUT_GROUPS = {
  whatWeDo: [
    { key: 'compliance', icon: 'scale' },
    { key: 'protection', icon: 'shield' },
    { key: 'operations', icon: 'terminal' },
  ],
  whyChoose: [
    { key: 'features', icon: 'layers' },
    { key: 'management', icon: 'sliders' },
    { key: 'technology', icon: 'database' },
  ],
  whoWeServe: [
    { key: 'healthcare', icon: 'heart' },
    { key: 'financial', icon: 'euro' },
    { key: 'government', icon: 'landmark' },
    { key: 'dbas', icon: 'database' },
    { key: 'enterprises', icon: 'building' },
  ],
} as const satisfies Record<string, readonly { key: string; icon: IconName }[]>;

/** Mission and vision side by side: two statements, an icon and a rule between them, no boxes. */
function Statements() {
  const { t } = usePage();
  return (
    <div className="grid gap-10 md:grid-cols-2 md:gap-0 md:divide-x md:divide-slate-200">
      {(['mission', 'vision'] as const).map((key, i) => (
        <section key={key} aria-labelledby={`about-${key}`} className={i === 0 ? 'md:pr-12' : 'md:pl-12'}>
          <h2 id={`about-${key}`} className="flex items-center gap-3 text-sm font-semibold uppercase tracking-wider text-teal-700">
            <Icon name={key === 'mission' ? 'target' : 'eye'} className="h-5 w-5" />
            {t(`about.${key}.title`)}
          </h2>
          <p className="mt-4 text-2xl leading-snug font-medium text-navy-900 text-pretty">{t(`about.${key}.text`)}</p>
        </section>
      ))}
    </div>
  );
}

/** What we do: the title and introduction beside three numbered rows. */
function WhatWeDo() {
  const { t } = usePage();
  return (
    <section aria-labelledby="what-we-do" className="grid gap-10 lg:grid-cols-[2fr_3fr] lg:gap-16">
      <div>
        <h2 id="what-we-do" className="text-3xl font-bold tracking-tight text-navy-900">{t('about.whatWeDo.title')}</h2>
        <p className="mt-4 text-lg leading-relaxed text-slate-600">{t('about.whatWeDo.intro')}</p>
      </div>
      <ol className="divide-y divide-slate-200 border-y border-slate-200">
        {ABOUT_GROUPS.whatWeDo.map((item, i) => (
          <li key={item.key} className="grid grid-cols-[auto_1fr] gap-x-5 py-6">
            <span aria-hidden="true" className="font-mono text-sm font-semibold text-teal-700">{String(i + 1).padStart(2, '0')}</span>
            <div>
              <h3 className="text-lg font-semibold text-navy-900">{t(`about.whatWeDo.${item.key}.title`)}</h3>
              <p className="mt-1.5 leading-relaxed text-slate-600">{t(`about.whatWeDo.${item.key}.text`)}</p>
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** Why choose us: three columns under a coloured rule, on a tinted band. */
function WhyChoose() {
  const { t } = usePage();
  return (
    <section aria-labelledby="why-choose" className="rounded-3xl bg-slate-50 p-8 ring-1 ring-slate-200 sm:p-12">
      <h2 id="why-choose" className="text-3xl font-bold tracking-tight text-navy-900">{t('about.whyChoose.title')}</h2>
      <div className="mt-10 grid gap-10 md:grid-cols-3 md:gap-8">
        {ABOUT_GROUPS.whyChoose.map((item) => (
          <div key={item.key} className="border-t-2 border-teal-600 pt-5">
            <Icon name={item.icon} className="h-7 w-7 text-teal-700" />
            <h3 className="mt-4 text-lg font-semibold text-navy-900">{t(`about.whyChoose.${item.key}.title`)}</h3>
            <p className="mt-2 leading-relaxed text-slate-600">{t(`about.whyChoose.${item.key}.text`)}</p>
          </div>
        ))}
      </div>
    </section>
  );
}

/** Who we serve: the title and introduction fill the first cell, so the five audiences complete the grid. */
function WhoWeServe() {
  const { t } = usePage();
  return (
    <section aria-labelledby="who-we-serve">
      <ul className="grid gap-px overflow-hidden rounded-3xl bg-slate-200 ring-1 ring-slate-200 sm:grid-cols-2 lg:grid-cols-3">
        <li className="bg-navy-900 p-8 text-white">
          <h2 id="who-we-serve" className="text-3xl font-bold tracking-tight">{t('about.whoWeServe.title')}</h2>
          <p className="mt-4 leading-relaxed text-slate-300">{t('about.whoWeServe.intro')}</p>
        </li>
        {ABOUT_GROUPS.whoWeServe.map((item) => (
          <li key={item.key} className="bg-white p-8">
            <span className="inline-flex h-10 w-10 items-center justify-center rounded-full bg-teal-50 text-teal-700 ring-1 ring-teal-100">
              <Icon name={item.icon} className="h-5 w-5" />
            </span>
            <h3 className="mt-4 text-lg font-semibold text-navy-900">{t(`about.whoWeServe.${item.key}.title`)}</h3>
            <p className="mt-2 leading-relaxed text-slate-600">{t(`about.whoWeServe.${item.key}.text`)}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The about page: mission and vision, what we do, why choose us, our journey, who we serve. */
export function AboutPage() {
  const { t } = usePage();
  return (
    <>
      <PageHeader title={t('about.title')}>
        <p>{t('about.intro')}</p>
      </PageHeader>
      <div className="mx-auto max-w-6xl space-y-20 px-4 py-16 sm:px-6 sm:py-20 lg:space-y-24 lg:px-8">
        <Statements />
        <WhatWeDo />
        <WhyChoose />
        <section aria-labelledby="journey" className="grid gap-6 rounded-3xl bg-navy-900 p-8 text-white sm:p-12 lg:grid-cols-[1fr_2fr]">
          <h2 id="journey" className="flex items-center gap-3 text-3xl font-bold tracking-tight">
            <Icon name="flag" className="h-8 w-8 text-teal-400" />
            {t('about.journey.title')}
          </h2>
          <p className="text-lg leading-relaxed text-slate-200">{t('about.journey.text')}</p>
        </section>
        <WhoWeServe />
      </div>
      <div className="pb-20">
        <CtaBanner />
      </div>
    </>
  );
}
