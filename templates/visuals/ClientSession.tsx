import { usePage } from '../page-context.tsx';

/** The rows the client's query returns, already masked: made-up names, phone numbers cut to the last two digits. */
const CLIENT_ROWS = [
  ['Marta Vidal Soler', '+34 6•• ••• •18'],
  ['Jordi Puig Serra', '+34 6•• ••• •07'],
  ['Ana Costa Ribeiro', '+34 6•• ••• •52'],
] as const;

const PROMPT = 'maskwise>';

/**
 * The interactive client: a terminal where a query on a patients table returns its names and phone
 * numbers masked. The SQL is code (the same in every language); the status line is translated.
 */
export function ClientSession() {
  const { t } = usePage();
  return (
    <figure aria-labelledby="client-caption" className="overflow-hidden rounded-2xl bg-navy-950 shadow-xl ring-1 ring-navy-900">
      <div aria-hidden="true" className="flex items-center gap-1.5 border-b border-white/10 px-4 py-3">
        <span className="h-2.5 w-2.5 rounded-full bg-slate-600" />
        <span className="h-2.5 w-2.5 rounded-full bg-slate-600" />
        <span className="h-2.5 w-2.5 rounded-full bg-slate-600" />
      </div>
      <div className="space-y-3 p-4 font-mono text-xs leading-relaxed text-slate-200 sm:p-5 sm:text-[13px]">
        <p>
          <span className="text-teal-300">{PROMPT}</span> <code>SELECT name, phone FROM patients LIMIT 3;</code>
        </p>
        <table className="text-left">
          <thead>
            <tr className="border-b border-dashed border-white/20 text-slate-400">
              <th scope="col" className="pb-1 pr-4 font-normal sm:pr-8">name</th>
              <th scope="col" className="pb-1 font-normal">phone</th>
            </tr>
          </thead>
          <tbody className="text-teal-300">
            {CLIENT_ROWS.map(([name, phone]) => (
              <tr key={name}>
                <td className="pr-4 pt-1 sm:pr-8">{name}</td>
                <td className="whitespace-nowrap pt-1">{phone}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="text-slate-400">{t('howItWorks.client.status')}</p>
        <p>
          <span className="text-teal-300">{PROMPT}</span> <span aria-hidden="true" className="inline-block h-4 w-2 translate-y-0.5 bg-slate-300" />
        </p>
      </div>
      <figcaption id="client-caption" className="border-t border-white/10 px-4 py-3 text-sm text-slate-300 sm:px-5">
        {t('howItWorks.client.caption')}
      </figcaption>
    </figure>
  );
}
