import { usePage } from '../page-context.tsx';

/**
 * One customer record before and after masking: made-up values that look real, and the technique
 * applied to each column. Values are data, the same in every language; labels are translated.
 */
const MASKING_EXAMPLE = [
  { column: 'name', technique: 'substitution', original: 'María García López', masked: 'Lucía Romero Vidal' },
  { column: 'email', technique: 'encryption', original: 'm.garcia@mail.es', masked: 'k.wqrtnz@mail.es' },
  { column: 'card', technique: 'partial', original: '4539 1488 0343 6467', masked: '4539 •••• •••• 6467' },
  { column: 'birthDate', technique: 'shuffling', original: '1984-03-12', masked: '1979-08-23' },
] as const;

/**
 * The hero's product visual: a table whose "original" column holds the production values and
 * whose "masked" column what a test copy receives, read left to right.
 */
export function MaskingTable() {
  const { t } = usePage();
  return (
    <figure aria-labelledby="masking-table-caption" className="rounded-2xl border border-white/10 bg-navy-900/80 p-4 shadow-2xl sm:p-5">
      <div aria-hidden="true" className="mb-4 flex items-center gap-1.5">
        <span className="h-2.5 w-2.5 rounded-full bg-rose-400" />
        <span className="h-2.5 w-2.5 rounded-full bg-amber-400" />
        <span className="h-2.5 w-2.5 rounded-full bg-emerald-400" />
        <span className="ml-3 font-mono text-xs text-slate-400">customers</span>
      </div>
      <table className="w-full text-left text-sm">
        <thead className="max-sm:sr-only">
          <tr className="border-b border-white/10 text-xs uppercase tracking-wide text-slate-400">
            <th scope="col" className="w-[30%] pb-2 pr-3 font-medium">{t('hero.table.column')}</th>
            <th scope="col" className="pb-2 pr-3 font-medium">
              {t('hero.table.original')} <span aria-hidden="true">→</span>
            </th>
            <th scope="col" className="pb-2 font-medium text-teal-300">{t('hero.table.masked')}</th>
          </tr>
        </thead>
        <tbody>
          {MASKING_EXAMPLE.map((row) => (
            <tr key={row.column} className="border-b border-white/10 last:border-0 max-sm:grid max-sm:grid-cols-2 max-sm:gap-x-3 max-sm:py-3">
              <th scope="row" className="py-3 pr-3 align-top font-normal max-sm:col-span-2 max-sm:py-0">
                <span className="block font-semibold text-white">{t(`hero.table.${row.column}`)}</span>
                <span className="block text-xs text-slate-400">{t(`hero.table.${row.technique}`)}</span>
              </th>
              <td className="py-3 pr-3 align-top font-mono max-sm:pr-0 text-xs text-slate-300 [overflow-wrap:anywhere] sm:whitespace-nowrap max-sm:pt-1.5 max-sm:pb-0">
                <span aria-hidden="true" className="block font-sans text-[11px] text-slate-400 sm:hidden">{t('hero.table.original')}</span>
                {row.original}
              </td>
              <td className="py-3 align-top font-mono text-xs text-teal-300 [overflow-wrap:anywhere] sm:whitespace-nowrap max-sm:pt-1.5 max-sm:pb-0">
                <span aria-hidden="true" className="block font-sans text-[11px] text-teal-200 sm:hidden">{t('hero.table.masked')}</span>
                {row.masked}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <figcaption id="masking-table-caption" className="mt-4 border-t border-white/10 pt-3 text-sm text-slate-400">
        {t('hero.table.caption')}
      </figcaption>
    </figure>
  );
}
