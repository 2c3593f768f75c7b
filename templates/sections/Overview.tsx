import { Icon, type IconName } from '../ui/Icon.tsx';
import { usePage } from '../page-context.tsx';
import { SectionHeading } from './SectionHeading.tsx';

/** The six points of the overview: what the product is and how it fits (the spec's six cards). */
const OVERVIEW_POINTS: readonly { key: string; icon: IconName }[] = [
  { key: 'security', icon: 'shield' },
  { key: 'compliance', icon: 'scale' },
  { key: 'deployment', icon: 'cloud' },
  { key: 'admin', icon: 'sliders' },
  { key: 'architecture', icon: 'layers' },
  { key: 'compatibility', icon: 'database' },
];

/**
 * The overview: six points laid out as an open list (icon beside the text, no boxes, so it reads
 * differently from the feature cards), then the "why" block.
 */
export function Overview() {
  const { t } = usePage();
  return (
    <section id="solutions" aria-labelledby="overview-title" className="scroll-mt-20 bg-slate-50 py-20 sm:py-24">
      <div className="mx-auto max-w-6xl px-4 sm:px-6 lg:px-8">
        <SectionHeading id="overview-title" title={t('overview.title')} subtitle={t('overview.subtitle')} />
        <ul className="mt-14 grid gap-x-10 gap-y-10 sm:grid-cols-2 lg:grid-cols-3">
          {OVERVIEW_POINTS.map((point) => (
            <li key={point.key} className="flex gap-4 border-t border-slate-200 pt-6">
              <span className="inline-flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-navy-900 text-teal-300">
                <Icon name={point.icon} className="h-5 w-5" />
              </span>
              <div className="min-w-0">
                <h3 className="text-lg font-semibold text-navy-900">{t(`overview.${point.key}.title`)}</h3>
                <p className="mt-2 leading-relaxed text-slate-600">{t(`overview.${point.key}.description`)}</p>
              </div>
            </li>
          ))}
        </ul>
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
