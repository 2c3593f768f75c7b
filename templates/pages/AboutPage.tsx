import { Icon, type IconName } from '../ui/Icon.tsx';
import { usePage } from '../page-context.tsx';
import { CardGrid, type CardItem } from '../sections/CardGrid.tsx';
import { CtaBanner } from '../sections/CtaBanner.tsx';
import { PageHeader } from './PageHeader.tsx';

const WHAT_WE_DO: readonly CardItem[] = [
  { key: 'compliance', icon: 'scale' },
  { key: 'protection', icon: 'shield' },
  { key: 'operations', icon: 'terminal' },
];
const WHY_CHOOSE: readonly CardItem[] = [
  { key: 'features', icon: 'layers' },
  { key: 'management', icon: 'sliders' },
  { key: 'technology', icon: 'database' },
];
const AUDIENCES: readonly CardItem[] = [
  { key: 'healthcare', icon: 'heart' },
  { key: 'financial', icon: 'euro' },
  { key: 'government', icon: 'landmark' },
  { key: 'dbas', icon: 'database' },
  { key: 'enterprises', icon: 'building' },
];

function Statement({ icon, title, text }: { icon: IconName; title: string; text: string }) {
  return (
    <div className="rounded-2xl bg-slate-50 p-8 ring-1 ring-slate-200">
      <Icon name={icon} className="h-8 w-8 text-teal-700" />
      <h2 className="mt-4 text-2xl font-bold text-navy-900">{title}</h2>
      <p className="mt-3 text-lg leading-relaxed text-slate-700">{text}</p>
    </div>
  );
}

// One titled section of cards; `prefix` names their translation keys, as in `CardGrid`.
function CardSection({ id, title, intro, prefix, items, columns }: {
  id: string;
  title: string;
  intro?: string;
  prefix: string;
  items: readonly CardItem[];
  columns: string;
}) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="text-3xl font-bold tracking-tight text-navy-900">{title}</h2>
      {intro !== undefined && <p className="mt-3 max-w-3xl text-lg text-slate-600">{intro}</p>}
      <div className="mt-8">
        <CardGrid prefix={prefix} items={items} textKey="text" columns={columns} />
      </div>
    </section>
  );
}

/** The about page: mission, what we do, vision, why choose us, our journey, who we serve. */
export function AboutPage() {
  const { t } = usePage();
  return (
    <>
      <PageHeader title={t('about.title')}>
        <p>{t('about.intro')}</p>
      </PageHeader>
      <div className="mx-auto max-w-6xl space-y-20 px-4 py-16 sm:px-6 sm:py-20 lg:px-8">
        <div className="grid gap-6 md:grid-cols-2">
          <Statement icon="target" title={t('about.mission.title')} text={t('about.mission.text')} />
          <Statement icon="eye" title={t('about.vision.title')} text={t('about.vision.text')} />
        </div>
        <CardSection id="what-we-do" title={t('about.whatWeDo.title')} intro={t('about.whatWeDo.intro')}
          prefix="about.whatWeDo" items={WHAT_WE_DO} columns="md:grid-cols-3" />
        <CardSection id="why-choose" title={t('about.whyChoose.title')} prefix="about.whyChoose" items={WHY_CHOOSE} columns="md:grid-cols-3" />
        <section aria-labelledby="journey" className="grid gap-6 rounded-3xl bg-navy-900 p-8 text-white sm:p-12 lg:grid-cols-[1fr_2fr]">
          <h2 id="journey" className="flex items-center gap-3 text-3xl font-bold tracking-tight">
            <Icon name="flag" className="h-8 w-8 text-teal-400" />
            {t('about.journey.title')}
          </h2>
          <p className="text-lg leading-relaxed text-slate-200">{t('about.journey.text')}</p>
        </section>
        <CardSection id="who-we-serve" title={t('about.whoWeServe.title')} prefix="about.whoWeServe" items={AUDIENCES} columns="lg:grid-cols-3" />
      </div>
      <div className="pb-20">
        <CtaBanner />
      </div>
    </>
  );
}
