import type { ReactNode } from 'react';
import { usePage } from '../page-context.tsx';
import { Icon, type IconName } from '../ui/Icon.tsx';

/** Who may see what: a database user and the access the privileges give them. */
const PRIVILEGES = [
  { user: 'dba_admin', access: 'original' },
  { user: 'qa_team', access: 'masked' },
  { user: 'analytics', access: 'masked' },
  { user: 'vendor_support', access: 'none' },
] as const;

const ACCESS_STYLE = {
  original: 'bg-amber-50 text-amber-900 ring-amber-300',
  masked: 'bg-teal-50 text-teal-900 ring-teal-300',
  none: 'bg-slate-100 text-slate-700 ring-slate-300',
} as const;

/** The access log: time, database user, what happened (translated). */
const LOG = [
  { time: '09:14', user: 'qa_team', event: 'logQuery' },
  { time: '09:12', user: 'dba_admin', event: 'logGrant' },
  { time: '09:05', user: 'dba_admin', event: 'logConfig' },
] as const;

/** The generated configuration file's rules (code, the same in every language). */
const CONFIG_LINES = ['[patients.name]', 'method = substitution', '', '[patients.phone]', 'method = partial', 'keep   = last 2'];

function Panel({ icon, title, children }: { icon: IconName; title: string; children: ReactNode }) {
  return (
    <div className="min-w-0 rounded-xl bg-white p-4 ring-1 ring-slate-200">
      <h3 className="flex items-center gap-2 text-sm font-semibold text-navy-900">
        <Icon name={icon} className="h-4 w-4 text-teal-700" />
        {title}
      </h3>
      <div className="mt-3">{children}</div>
    </div>
  );
}

/**
 * The administrator tools: user privileges, the access log and a generated configuration file, as
 * three panels of one console. User names and the file's rules are code; everything else is translated.
 */
export function AdminTools() {
  const { t } = usePage();
  return (
    <figure aria-labelledby="admin-caption" className="rounded-2xl bg-slate-100 p-3 ring-1 ring-slate-200 sm:p-4">
      <div className="grid gap-3 md:grid-cols-2 lg:grid-cols-3">
        <Panel icon="users" title={t('howItWorks.adminTools.privileges')}>
          <table className="w-full text-left text-sm">
            <thead className="sr-only">
              <tr>
                <th scope="col">{t('howItWorks.adminTools.user')}</th>
                <th scope="col">{t('howItWorks.adminTools.access')}</th>
              </tr>
            </thead>
            <tbody>
              {PRIVILEGES.map((row) => (
                <tr key={row.user} className="border-t border-slate-100 first:border-0">
                  <td className="py-2 pr-2 font-mono text-[13px] text-slate-700 [overflow-wrap:anywhere]">{row.user}</td>
                  <td className="py-2 text-right">
                    <span className={`inline-block rounded-full px-2 py-0.5 text-xs font-medium ring-1 ${ACCESS_STYLE[row.access]}`}>
                      {t(`howItWorks.adminTools.${row.access}`)}
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Panel>
        <Panel icon="clipboard" title={t('howItWorks.adminTools.logs')}>
          <ol className="space-y-2.5 text-sm">
            {LOG.map((entry) => (
              <li key={entry.time} className="grid grid-cols-[auto_1fr] gap-x-3">
                <time className="font-mono text-[13px] text-slate-500">{entry.time}</time>
                <span className="min-w-0">
                  <span className="block font-mono text-[13px] text-slate-700">{entry.user}</span>
                  <span className="block text-slate-600">{t(`howItWorks.adminTools.${entry.event}`)}</span>
                </span>
              </li>
            ))}
          </ol>
        </Panel>
        <Panel icon="terminal" title={t('howItWorks.adminTools.config')}>
          <p className="font-mono text-xs text-slate-500">masking.conf</p>
          <pre className="mt-2 overflow-hidden rounded-lg bg-navy-950 p-3 font-mono text-[12px] leading-relaxed whitespace-pre-wrap text-slate-200">
            <code>
              <span className="text-slate-400"># {t('howItWorks.adminTools.generated')}</span>
              {'\n'}
              {CONFIG_LINES.join('\n')}
            </code>
          </pre>
        </Panel>
      </div>
      <figcaption id="admin-caption" className="mt-3 px-1 text-sm text-slate-600">{t('howItWorks.adminTools.caption')}</figcaption>
    </figure>
  );
}
