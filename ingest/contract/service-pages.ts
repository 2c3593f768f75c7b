/**
 * The pages of the site that the ingest service sends people to: the links in its mails and the
 * `303 See Other` answers to plain HTML form posts. sitegen builds them in every language
 * (`noindex`, outside the sitemap); the service only ever builds their address from this table,
 * the configured site URL and a language it has validated — never from anything in a request.
 *
 * The site's routes table (`cli/site/routes.ts`) lists the same paths; a test holds the two equal.
 *
 * | page | what it shows |
 * |---|---|
 * | newsletterConfirm | "Confirm your subscription" with a button (the mail's link; `?token=`) |
 * | newsletterConfirmed | the subscription is active |
 * | newsletterUnsubscribe | "Unsubscribe" with a button (`?token=`, the link in every mail) |
 * | newsletterUnsubscribed | the address and its data are gone |
 * | linkInvalid | the link has expired or is not valid; nothing was changed |
 * | newsletterCheckInbox | a plain form signup was received: check your inbox for the confirmation link (the same page whatever the address's state) |
 * | formNotAccepted… (one per issue code) | a plain form post was refused: the reason (`validation.<code>`) and links back to the forms |
 * | tooManyAttempts | a plain form post over the rate limit: wait a minute |
 * | formNotStored | a plain form post the service could not store (database unavailable): nothing was kept, try again later |
 * | contactCheckInbox | a plain form contact was received: confirm your address with the link we sent (the same page when the address's mail cap held the mail back) |
 * | contactConfirm | "Confirm and send your message" with a button (the contact mail's link; `?token=`) |
 * | contactConfirmed | the message has gone to the team |
 * | contactLinkInvalid | the contact link has expired or is not valid; nothing was sent |
 *
 * A plain form post from a foreign origin is answered 403 by the service itself, with a short
 * page in the form's language (texts `servicePages.formRefused.*`).
 */
import type { IssueCode, Lang } from './schemas.ts';

/** The service pages by id, with their path in English (other languages add `/<lang>` in front). */
export const SERVICE_PAGES = {
  newsletterConfirm: '/newsletter/confirm',
  newsletterConfirmed: '/newsletter/confirmed',
  newsletterUnsubscribe: '/newsletter/unsubscribe',
  newsletterUnsubscribed: '/newsletter/unsubscribed',
  linkInvalid: '/newsletter/link-invalid',
  newsletterCheckInbox: '/newsletter/check-inbox',
  formNotAcceptedRequired: '/form/not-accepted/required',
  formNotAcceptedEmail: '/form/not-accepted/email',
  formNotAcceptedTooLong: '/form/not-accepted/too-long',
  formNotAcceptedConsent: '/form/not-accepted/consent',
  formNotAcceptedCountry: '/form/not-accepted/country',
  formNotAcceptedCaptcha: '/form/not-accepted/captcha',
  formNotAcceptedInvalidChars: '/form/not-accepted/invalid-characters',
  formNotAcceptedInvisibleChars: '/form/not-accepted/invisible-characters',
  tooManyAttempts: '/form/too-many-attempts',
  formNotStored: '/form/not-stored',
  contactCheckInbox: '/contact/check-inbox',
  contactConfirm: '/contact/confirm',
  contactConfirmed: '/contact/confirmed',
  contactLinkInvalid: '/contact/link-invalid',
} as const;

/** One of the service pages. */
export type ServicePage = keyof typeof SERVICE_PAGES;

/**
 * The pages whose form posts back to the page's own address (with its `?token=`): hosts forward
 * that POST to the service's endpoint of the same name under the API base, without the language
 * (`POST /de/newsletter/confirm?token=…` → `POST /api/newsletter/confirm?token=…`). The body is
 * `lang=<lang>` (urlencoded); the token may also come in the body as `token`.
 */
export const TOKEN_FORM_PAGES = {
  newsletterConfirm: '/newsletter/confirm',
  newsletterUnsubscribe: '/newsletter/unsubscribe',
  contactConfirm: '/contact/confirm',
} as const satisfies Partial<Record<ServicePage, string>>;

/** The "not accepted" page that explains an issue code (the first field's issue of a refused form). */
export const NOT_ACCEPTED_PAGES: Readonly<Record<IssueCode, ServicePage>> = {
  required: 'formNotAcceptedRequired',
  email: 'formNotAcceptedEmail',
  tooLong: 'formNotAcceptedTooLong',
  consent: 'formNotAcceptedConsent',
  country: 'formNotAcceptedCountry',
  captcha: 'formNotAcceptedCaptcha',
  invalidChars: 'formNotAcceptedInvalidChars',
  invisibleChars: 'formNotAcceptedInvisibleChars',
};

/** The path of a service page in a language: `servicePagePath('newsletterConfirm', 'de')` → `/de/newsletter/confirm`. */
export function servicePagePath(page: ServicePage, lang: Lang): string {
  return lang === 'en' ? SERVICE_PAGES[page] : `/${lang}${SERVICE_PAGES[page]}`;
}
