import type { IconName } from '../ui/Icon.tsx';
import { usePage } from '../page-context.tsx';
import { Card } from './Card.tsx';

/** One card of a grid: its key under the grid's prefix and its icon. */
export interface CardItem {
  key: string;
  icon: IconName;
}

/**
 * A responsive grid of cards whose texts are translation keys under one prefix.
 *
 * @example <CardGrid prefix="features" textKey="description" items={[{ key: 'gdpr', icon: 'euro' }]} />
 * // one card titled t('features.gdpr.title'), described by t('features.gdpr.description')
 */
export function CardGrid({ prefix, items, textKey, columns = 'lg:grid-cols-3' }: {
  prefix: string;
  items: readonly CardItem[];
  textKey: 'description' | 'text';
  columns?: string;
}) {
  const { t } = usePage();
  return (
    <div className={`grid gap-6 sm:grid-cols-2 ${columns}`}>
      {items.map((item, index) => (
        <Card key={item.key} index={index} icon={item.icon}
          title={t(`${prefix}.${item.key}.title`)} description={t(`${prefix}.${item.key}.${textKey}`)} />
      ))}
    </div>
  );
}
