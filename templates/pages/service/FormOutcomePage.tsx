import type { ReactNode } from 'react';
import { ISSUE_CODES, type IssueCode } from '../../../ingest/contract/schemas.ts';
import { NOT_ACCEPTED_PAGES } from '../../../ingest/contract/service-pages.ts';
import { homeAnchor, pathFor, type ServicePageId } from '../../../cli/site/routes.ts';
import { CONTACT_FORM_ID } from '../../forms/contact-link.ts';
import { usePage } from '../../page-context.tsx';
import { RichText } from '../../ui/RichText.tsx';
import { PageHeader } from '../../layout/PageHeader.tsx';
import { ServicePageLinks } from './ServicePageLinks.tsx';

/**
 * A page the service sends a visitor to when a form sent without JavaScript was refused (one
 * "not accepted" page per issue code, `NOT_ACCEPTED_PAGES`), came too often, or could not be stored.
 */
export type FormOutcomePage = Extract<ServicePageId, `formNotAccepted${string}` | 'tooManyAttempts' | 'formNotStored'>;

/** The issue code a "not accepted" page explains: `formNotAcceptedEmail` → `email`. */
function issueOf(page: FormOutcomePage): IssueCode | undefined {
  return ISSUE_CODES.find((code) => NOT_ACCEPTED_PAGES[code] === page);
}

/**
 * What went wrong with a form sent without JavaScript, and what to do: the reason a form was not
 * accepted (the field message the form itself shows, `validation.<code>`), too many attempts, or a
 * failure on the service's side; then the ways back to both forms, since either may have sent it.
 */
export function FormOutcomePage({ page }: { page: FormOutcomePage }) {
  const { lang, t, site } = usePage();
  const issue = issueOf(page);
  let title: string, text: string, more: ReactNode;
  if (issue) {
    title = t('servicePages.notAccepted.title');
    // tooLong's message names the limit of the field ({{max}}), which this page cannot know.
    text = issue === 'tooLong' ? t('servicePages.notAccepted.tooLong') : t(`validation.${issue}`);
    more = t('servicePages.notAccepted.correct');
  } else if (page === 'tooManyAttempts') {
    title = t('servicePages.tooManyAttempts.title');
    text = t('servicePages.tooManyAttempts.text');
    more = t('servicePages.tooManyAttempts.wait');
  } else {
    title = t('servicePages.notStored.title');
    text = t('servicePages.notStored.text');
    more = (
      <RichText
        text={t('servicePages.notStored.tryAgain')}
        tags={{ mail: (address) => <a href={`mailto:${site.email}`} className="font-medium text-teal-700 underline underline-offset-2 hover:text-teal-900">{address}</a> }}
      />
    );
  }
  const links = [
    { href: homeAnchor(page, lang, 'newsletter'), label: t('servicePages.backToNewsletter') },
    { href: `${pathFor('contact', lang)}#${CONTACT_FORM_ID}`, label: t('servicePages.backToContact') },
  ];
  return (
    <>
      <PageHeader title={title}>
        <p>{text}</p>
      </PageHeader>
      <div className="mx-auto max-w-6xl px-4 py-14 sm:px-6 sm:py-20 lg:px-8">
        <p className="max-w-3xl text-lg leading-relaxed text-slate-700">{more}</p>
        <ServicePageLinks links={links} primary={false} />
      </div>
    </>
  );
}
