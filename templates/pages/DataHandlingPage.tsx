import type { ReactNode } from 'react';
import { cspDirectives, serviceOriginsOf } from '../../cli/site/content-security-policy.ts';
import { pathFor } from '../../cli/site/routes.ts';
import { PageHeader } from '../layout/PageHeader.tsx';
import { usePage } from '../page-context.tsx';
import { RichText } from '../ui/RichText.tsx';

/** The summary table's rows (one per form, keys under `dataHandling.summary.`) and columns. */
const SUMMARY_ROWS = ['newsletter', 'contact', 'contactNoJs'] as const;
const SUMMARY_COLUMNS = ['stores', 'howLong', 'where', 'recipients'] as const;

/** The sections below the summary, by id (keys under `dataHandling.`), each a title and its paragraphs. */
const SECTIONS = {
  cookies: ['text'],
  recipients: ['server', 'sales', 'tools', 'toolsRetry', 'never'],
  records: ['consent', 'logs', 'rateLimits', 'captcha', 'backups'],
  rights: ['ask', 'export', 'erase', 'unsubscribe'],
} as const;

/**
 * The key under `dataHandling.csp.directive.` of what a CSP directive governs.
 *
 * @example directiveKey('frame-ancestors') // 'frameAncestors'
 */
function directiveKey(name: string): string {
  return name.replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase());
}

/** A section of the page: a heading and its content. */
function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="mt-12 first:mt-0">
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

/**
 * The rules of the Content-Security-Policy every host sends with the pages, from the same
 * directives the host configs join into the header: what each governs and the sources it allows.
 * The hashes of the inline scripts and styles are the build's, so the table says they exist
 * rather than listing them.
 */
function PolicyTable() {
  const { t, site } = usePage();
  const directives = cspDirectives({ scriptHashes: [], styleHashes: [], serviceOrigins: serviceOriginsOf(site.siteUrl, site.ingestUrl) });
  const byHash = new Set(['script-src', 'style-src']);
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="csp-caption">
      <table id="csp-rules">
        <caption id="csp-caption" className="sr-only">{t('dataHandling.csp.caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('dataHandling.csp.rule')}</th>
            <th scope="col">{t('dataHandling.csp.allows')}</th>
          </tr>
        </thead>
        <tbody>
          {directives.map(({ name, sources }) => (
            <tr key={name}>
              <th scope="row" className="font-normal">
                <code>{name}</code>
                <span className="block text-sm text-slate-600">{t(`dataHandling.csp.directive.${directiveKey(name)}`)}</span>
              </th>
              <td>
                {sources.map((source) => <code key={source} data-csp-source className="mr-2 inline-block">{source}</code>)}
                {byHash.has(name) && <span className="block text-sm text-slate-600">{t('dataHandling.csp.byHash')}</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The summary table: per form, what is stored, for how long, where, and who receives it. Below
 * the `md` breakpoint each form is a block of labelled lines, since five columns do not fit a phone.
 */
function SummaryTable() {
  const { t } = usePage();
  const cell = 'max-md:block max-md:border-0 max-md:px-0 max-md:py-1.5';
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="summary-caption">
      <table id="data-summary" className="max-md:block">
        <caption id="summary-caption" className="sr-only">{t('dataHandling.summary.caption')}</caption>
        <thead className="max-md:sr-only">
          <tr>
            <th scope="col">{t('dataHandling.summary.head.form')}</th>
            {SUMMARY_COLUMNS.map((column) => <th key={column} scope="col">{t(`dataHandling.summary.head.${column}`)}</th>)}
          </tr>
        </thead>
        <tbody className="max-md:block">
          {SUMMARY_ROWS.map((row) => (
            <tr key={row} className="max-md:block max-md:border-b max-md:border-slate-200 max-md:py-4">
              <th scope="row" className={`${cell} max-md:bg-transparent max-md:text-lg`}>{t(`dataHandling.summary.${row}.form`)}</th>
              {SUMMARY_COLUMNS.map((column) => (
                <td key={column} className={cell}>
                  <span className="block text-xs font-semibold tracking-wider text-slate-500 uppercase md:hidden">
                    {t(`dataHandling.summary.head.${column}`)}
                  </span>
                  {t(`dataHandling.summary.${row}.${column}`)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * How this site treats your data: the privacy policy's facts in a minute's reading — a summary
 * table per form, no cookies, the Content-Security-Policy's rules, who receives what, the other
 * records and their periods, and how to get a copy or an erasure. Every period is a
 * `{{placeholder}}` of the facts table the service applies.
 */
export function DataHandlingPage() {
  const { lang, t, site } = usePage();
  const privacyLink = (text: string) => <a href={pathFor('privacy', lang)}>{text}</a>;
  const mailLink = (text: string) => <a href={`mailto:${site.privacyEmail}`}>{text}</a>;
  return (
    <>
      <PageHeader title={t('dataHandling.title')}>
        <p>{t('dataHandling.intro')}</p>
      </PageHeader>
      <div className="mx-auto max-w-6xl px-4 py-14 sm:px-6 lg:px-8">
        <article className="legal-prose [&_p]:max-w-3xl [&_ul]:max-w-3xl">
          <Section id="summary" title={t('dataHandling.summary.title')}>
            <p>{t('dataHandling.summary.text')}</p>
            <SummaryTable />
          </Section>
          <Section id="cookies" title={t('dataHandling.cookies.title')}>
            {SECTIONS.cookies.map((key) => <p key={key}>{t(`dataHandling.cookies.${key}`)}</p>)}
          </Section>
          <Section id="third-parties" title={t('dataHandling.csp.title')}>
            <p>{t('dataHandling.csp.text')}</p>
            <PolicyTable />
            <p>{t('dataHandling.csp.legend')}</p>
          </Section>
          <Section id="recipients" title={t('dataHandling.recipients.title')}>
            {SECTIONS.recipients.map((key) => <p key={key}>{t(`dataHandling.recipients.${key}`)}</p>)}
          </Section>
          <Section id="records" title={t('dataHandling.records.title')}>
            <ul>{SECTIONS.records.map((key) => <li key={key}>{t(`dataHandling.records.${key}`)}</li>)}</ul>
          </Section>
          <Section id="rights" title={t('dataHandling.rights.title')}>
            {SECTIONS.rights.map((key) => (
              <p key={key}><RichText text={t(`dataHandling.rights.${key}`)} tags={{ mail: mailLink }} /></p>
            ))}
          </Section>
          <p className="text-sm text-slate-600"><RichText text={t('dataHandling.source')} tags={{ privacy: privacyLink }} /></p>
        </article>
      </div>
    </>
  );
}
