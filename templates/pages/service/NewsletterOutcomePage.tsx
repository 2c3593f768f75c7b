import type { ReactNode } from 'react';
import { homeAnchor, pathFor, type ServicePageId } from '../../../cli/site/routes.ts';
import { usePage } from '../../page-context.tsx';
import { RichText } from '../../ui/RichText.tsx';
import { PageHeader } from '../../layout/PageHeader.tsx';
import { ServicePageLinks, type ServicePageLink } from './ServicePageLinks.tsx';

/**
 * A page the service sends a visitor to after a token form's post, when a link is not valid, or
 * after a signup sent without JavaScript.
 */
export type OutcomePage = Extract<
  ServicePageId,
  'newsletterConfirmed' | 'newsletterUnsubscribed' | 'linkInvalid' | 'newsletterCheckInbox'
>;

/** What one of the pages says below its title, and where it leads: the first link is the main way on. */
interface Outcome {
  section: string;
  more: ReactNode;
  links: ServicePageLink[];
}

/**
 * What happened after a newsletter link or signup: the subscription is active, the address is
 * gone, the link was not valid (and what to do instead), or a confirmation mail is on its way;
 * with the way back to the home page. (No page says an address is subscribed already: every
 * signup lands on "check your inbox", and the address's owner learns it by mail.)
 */
export function NewsletterOutcomePage({ page }: { page: OutcomePage }) {
  const { lang, t, site } = usePage();
  const home = { href: pathFor('home', lang), label: t('servicePages.backHome') };
  const signUp = { href: homeAnchor(page, lang, 'newsletter'), label: t('servicePages.signUpAgain') };
  const outcomes: Record<OutcomePage, Outcome> = {
    newsletterConfirmed: { section: 'confirmed', more: <p>{t('servicePages.confirmed.unsubscribeHint')}</p>, links: [home] },
    newsletterUnsubscribed: { section: 'unsubscribed', more: <p>{t('servicePages.unsubscribed.signUpHint')}</p>, links: [home, signUp] },
    linkInvalid: {
      section: 'linkInvalid',
      more: (
        <>
          <h2 className="text-xl font-semibold text-navy-900">{t('servicePages.linkInvalid.whatToDo')}</h2>
          <ul className="mt-3 list-disc space-y-2 pl-5">
            <li>{t('servicePages.linkInvalid.confirmHelp')}</li>
            <li>
              <RichText
                text={t('servicePages.linkInvalid.unsubscribeHelp')}
                tags={{ mail: (address) => <a href={`mailto:${site.privacyEmail}`} className="font-medium text-teal-700 underline underline-offset-2 hover:text-teal-900">{address}</a> }}
              />
            </li>
          </ul>
        </>
      ),
      links: [signUp, home],
    },
    newsletterCheckInbox: { section: 'checkInbox', more: <p>{t('servicePages.checkInbox.notReceived')}</p>, links: [home] },
  };
  const { section, more, links } = outcomes[page];
  return (
    <>
      <PageHeader title={t(`servicePages.${section}.title`)}>
        <p>{t(`servicePages.${section}.text`)}</p>
      </PageHeader>
      <div className="mx-auto max-w-6xl px-4 py-14 sm:px-6 sm:py-20 lg:px-8">
        <div className="max-w-3xl text-lg leading-relaxed text-slate-700">{more}</div>
        <ServicePageLinks links={links} />
      </div>
    </>
  );
}
