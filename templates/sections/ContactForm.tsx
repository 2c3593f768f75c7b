import { pathFor } from '../../cli/site/routes.ts';
import { CONTACT_FORM_ID, PRESELECT_INTENT_SCRIPT } from '../forms/contact-link.ts';
import { countryOptions } from '../forms/country-options.ts';
import { pick, validationMessages } from '../forms/form-strings.ts';
import { ContactForm as ContactFormIsland } from '../islands/components/ContactForm.tsx';
import { Island } from '../islands/Island.tsx';
import { usePage } from '../page-context.tsx';

const STRINGS = [
  'firstName', 'lastName', 'email', 'phone', 'companyName', 'optional', 'country', 'selectCountry', 'message',
  'messagePlaceholder', 'captchaLabel', 'captchaHint', 'captchaLoading', 'submit', 'sending',
  'errorTitle', 'errorMessage', 'captchaErrorTitle', 'captchaErrorMessage', 'privacyNote',
  'captchaTooFastMessage', 'reason', 'reasonDemo', 'reasonSales', 'reasonGeneral', 'sentTitle', 'sentText', 'sendAnother',
] as const;

/**
 * The contact form island with its translated strings and the country list of the page's language,
 * in the box the demo and sales buttons link to (`contactLink`), followed by the inline script that
 * selects the link's reason before the page first paints (`PRESELECT_INTENT_SCRIPT`).
 */
export function ContactForm() {
  const { lang, t, site } = usePage();
  return (
    <div id={CONTACT_FORM_ID} className="scroll-mt-20">
      <Island
        name="ContactForm"
        component={ContactFormIsland}
        fromMarkup={['countries']}
        props={{
          lang,
          endpoint: `${site.ingestUrl}/contact`,
          captchaEndpoint: `${site.ingestUrl}/captcha`,
          privacyHref: pathFor('privacy', lang),
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
      <script dangerouslySetInnerHTML={{ __html: PRESELECT_INTENT_SCRIPT }} />
    </div>
  );
}
