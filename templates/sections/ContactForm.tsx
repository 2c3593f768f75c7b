import { pathFor } from '../../cli/site/routes.ts';
import type { ContactIntent } from '../../ingest/contract/schemas.ts';
import { CONTACT_FORM_ID } from '../forms/contact-link.ts';
import { countryOptions } from '../forms/country-options.ts';
import { pick, validationMessages } from '../forms/form-strings.ts';
import { ContactForm as ContactFormIsland } from '../islands/components/ContactForm.tsx';
import { Island } from '../islands/Island.tsx';
import { usePage } from '../page-context.tsx';

const STRINGS = [
  'firstName', 'lastName', 'email', 'phone', 'companyName', 'optional', 'country', 'selectCountry', 'message',
  'messagePlaceholder', 'captchaLabel', 'captchaHint', 'captchaLoading', 'captchaUnavailable', 'captchaRetry', 'submit', 'sending',
  'errorTitle', 'errorMessage', 'captchaErrorTitle', 'captchaErrorMessage', 'privacyNote',
  'captchaTooFastMessage', 'reason', 'reasonDemo', 'reasonSales', 'reasonGeneral', 'sentTitle', 'sentText',
  'successTitle', 'successMessage',
] as const;

/**
 * The contact form island with its translated strings and the country list of the page's language,
 * in the box the demo and sales buttons link to (`contactLink`), the reason of its page selected.
 */
export function ContactForm({ intent }: { intent: ContactIntent }) {
  const { lang, t, site } = usePage();
  return (
    <div id={CONTACT_FORM_ID} className="scroll-mt-20">
      <Island
        name="ContactForm"
        component={ContactFormIsland}
        fromMarkup={['countries']}
        props={{
          lang,
          intent,
          endpoint: `${site.ingestUrl}/contact`,
          captchaEndpoint: `${site.ingestUrl}/captcha`,
          privacyHref: pathFor('privacy', lang),
          dataHandlingHref: pathFor('dataHandling', lang),
          countries: countryOptions(lang),
          strings: {
            ...pick(t, 'contact', STRINGS),
            // Interpolated on the client with the question's digits.
            captchaLabel: t('contact.captchaLabel', { a: '{{a}}', b: '{{b}}' }),
            captchaNoScript: t('contact.captchaNoScript'),
            rateLimited: t('toast.rateLimited'),
            close: t('toast.close'),
          },
          validation: validationMessages(t),
        }}
      />
    </div>
  );
}
