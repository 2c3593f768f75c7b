import { Icon } from '../ui/Icon.tsx';
import { usePage } from '../page-context.tsx';
import { CardGrid, type CardItem } from './CardGrid.tsx';
import { SectionHeading } from './SectionHeading.tsx';

const CARDS: readonly CardItem[] = [
  { key: 'security', icon: 'shield' },
  { key: 'compliance', icon: 'scale' },
  { key: 'deployment', icon: 'cloud' },
  { key: 'admin', icon: 'sliders' },
  { key: 'architecture', icon: 'layers' },
  { key: 'compatibility', icon: 'database' },
];

/** The overview: six cards on what the product is, and the "why" block. */
export function Overview() {
  const { t } = usePage();
  return (
    <section id="solutions" aria-labelledby="overview-title" className="scroll-mt-20 bg-slate-50 py-20 sm:py-24">
      <div className="mx-auto max-w-6xl px-4 sm:px-6 lg:px-8">
        <SectionHeading id="overview-title" title={t('overview.title')} subtitle={t('overview.subtitle')} />
        <div className="mt-14">
          <CardGrid prefix="overview" items={CARDS} textKey="description" />
        </div>
        <div className="mt-16 grid gap-8 rounded-3xl bg-navy-900 p-8 text-white sm:p-12 lg:grid-cols-2 lg:items-center">
          <div>
            <h3 className="text-2xl font-bold sm:text-3xl">{t('overview.why.title')}</h3>
            <p className="mt-4 leading-relaxed text-slate-300">{t('overview.why.description')}</p>
          </div>
          <ul className="space-y-4">
            {(['point1', 'point2', 'point3'] as const).map((point) => (
              <li key={point} className="flex items-start gap-3">
                <span className="mt-0.5 inline-flex h-6 w-6 shrink-0 items-center justify-center rounded-full bg-teal-500 text-navy-950">
                  <Icon name="check" className="h-4 w-4" />
                </span>
                <span className="text-slate-100">{t(`overview.why.${point}`)}</span>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </section>
  );
}
