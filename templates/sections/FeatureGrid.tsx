import { usePage } from '../page-context.tsx';
import { CardGrid, type CardItem } from './CardGrid.tsx';
import { SectionHeading } from './SectionHeading.tsx';

const FEATURES: readonly CardItem[] = [
  { key: 'gdpr', icon: 'euro' },
  { key: 'hipaa', icon: 'heart' },
  { key: 'obfuscation', icon: 'mask' },
  { key: 'scalable', icon: 'trend' },
  { key: 'sync', icon: 'sync' },
  { key: 'audit', icon: 'clipboard' },
];

/** The feature grid: six capability cards (gdpr, hipaa, obfuscation, scalable, sync, audit). */
export function FeatureGrid() {
  const { t } = usePage();
  return (
    <section id="features" aria-labelledby="features-title" className="scroll-mt-20 py-20 sm:py-24">
      <div className="mx-auto max-w-6xl px-4 sm:px-6 lg:px-8">
        <SectionHeading id="features-title" title={t('features.title')} subtitle={t('features.subtitle')} />
        <div className="mt-14">
          <CardGrid prefix="features" items={FEATURES} textKey="description" />
        </div>
      </div>
    </section>
  );
}
