import type { ReactNode } from 'react';
import { pathFor, type ServicePageId } from '../../../cli/site/routes.ts';
import { CONTACT_FORM_ID } from '../../forms/contact-link.ts';
import { usePage } from '../../page-context.tsx';
import { RichText } from '../../ui/RichText.tsx';
import { PageHeader } from '../../layout/PageHeader.tsx';
import { ServicePageLinks, type ServicePageLink } from './ServicePageLinks.tsx';

/**
 * A page the service sends a visitor to after a contact message sent without JavaScript (which has
 * no captcha, so its sender confirms the address by mail): check your inbox, sent, link not valid.
 */
export type ContactOutcomePage = Extract<ServicePageId, 'contactCheckInbox' | 'contactConfirmed' | 'contactLinkInvalid'>;

/** The texts of each page, under `servicePages.contact.<section>`: at least title and text. */
const SECTION: Readonly<Record<ContactOutcomePage, string>> = {
  contactCheckInbox: 'checkInbox',
  contactConfirmed: 'confirmed',
  contactLinkInvalid: 'linkInvalid',
};

/**
 * Where a contact message sent without JavaScript stands: a confirmation link is on its way to the
 * sender (valid 7 days; unconfirmed messages are deleted), the confirmed message has gone to the
 * team, or the link was not valid and nothing was sent (send the form again, or write); with the
 * ways on, to the home page and the contact form.
 */
export function ContactOutcomePage({ page }: { page: ContactOutcomePage }) {
  const { lang, t, site } = usePage();
  const text = (key: string) => t(`servicePages.contact.${SECTION[page]}.${key}`);
  const mail = (address: string) => (
    <a href={`mailto:${site.email}`} className="font-medium text-teal-700 underline underline-offset-2 hover:text-teal-900">{address}</a>
  );
  const home: ServicePageLink = { href: pathFor('home', lang), label: t('servicePages.backHome') };
  const contact: ServicePageLink = { href: `${pathFor('contact', lang)}#${CONTACT_FORM_ID}`, label: t('servicePages.backToContact') };
  // Built for this page only: every key looked up must exist in its section.
  const outcomes: Record<ContactOutcomePage, () => { more: ReactNode; links: ServicePageLink[] }> = {
    contactCheckInbox: () => ({
      more: (
        <>
          <p>{text('expiry')}</p>
          <p className="mt-4"><RichText text={text('notReceived')} tags={{ mail }} /></p>
        </>
      ),
      links: [home, contact],
    }),
    contactConfirmed: () => ({ more: <p>{text('reply')}</p>, links: [home] }),
    contactLinkInvalid: () => ({
      more: (
        <>
          <h2 className="text-xl font-semibold text-navy-900">{text('whatToDo')}</h2>
          <p className="mt-3"><RichText text={text('help')} tags={{ mail }} /></p>
        </>
      ),
      links: [contact, home],
    }),
  };
  const { more, links } = outcomes[page]();
  return (
    <>
      <PageHeader title={text('title')}>
        <p>{text('text')}</p>
      </PageHeader>
      <div className="mx-auto max-w-6xl px-4 py-14 sm:px-6 sm:py-20 lg:px-8">
        <div className="max-w-3xl text-lg leading-relaxed text-slate-700">{more}</div>
        <ServicePageLinks links={links} />
      </div>
    </>
  );
}
