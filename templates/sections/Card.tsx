import { Icon, type IconName } from '../ui/Icon.tsx';
import { staggerClass } from './stagger.ts';

/** A feature card: icon, title, description, fading in after `index` × 0.1 s. */
export function Card({ icon, title, description, index, headingLevel = 3 }: {
  icon: IconName;
  title: string;
  description: string;
  index: number;
  headingLevel?: 2 | 3;
}) {
  const Heading = `h${headingLevel}` as const;
  return (
    <article className={`rounded-2xl border border-slate-200 bg-white p-6 shadow-sm transition-shadow hover:shadow-md ${staggerClass(index)}`}>
      <span className="inline-flex h-11 w-11 items-center justify-center rounded-xl bg-teal-50 text-teal-700 ring-1 ring-teal-100">
        <Icon name={icon} />
      </span>
      <Heading className="mt-4 text-lg font-semibold text-navy-900">{title}</Heading>
      <p className="mt-2 leading-relaxed text-slate-600">{description}</p>
    </article>
  );
}
