/**
 * Which page shows the strings under each key prefix of `content/locales/<lang>.json` (the
 * longest matching prefix wins); keys under no prefix here show on every page: the header
 * (`nav`), the footer (`footer`), the 404 page (`notFound`), the forms' toasts (`toast`) and the
 * legal pages' shared labels (`legal`). The "Where a text lives" table of docs/content.md lists the same map.
 */
const KEY_PREFIX_PAGES: Readonly<Record<string, string>> = {
  'meta.home': 'home',
  hero: 'home',
  overview: 'home',
  features: 'home',
  cta: 'home',
  newsletter: 'home',
  'meta.about': 'about',
  about: 'about',
  'meta.solutions': 'solutions',
  solutions: 'solutions',
  'meta.contact': 'contact',
  'meta.contactDemo': 'contact',
  'meta.contactSales': 'contact',
  contact: 'contact',
  validation: 'contact',
  'meta.legalNotice': 'legal-notice',
  'meta.privacy': 'privacy',
  'meta.cookies': 'cookies',
  'meta.dataHandling': 'data handling',
  dataHandling: 'data handling',
  'meta.howItWorks': 'how it works',
  howItWorks: 'how it works',
  'meta.newsletterConfirm': 'newsletter pages',
  'meta.newsletterConfirmed': 'newsletter pages',
  'meta.newsletterUnsubscribe': 'newsletter pages',
  'meta.newsletterUnsubscribed': 'newsletter pages',
  'meta.linkInvalid': 'newsletter pages',
  'meta.newsletterCheckInbox': 'newsletter pages',
  servicePages: 'newsletter pages',
  'meta.formNotAccepted': 'form result pages',
  'meta.tooManyAttempts': 'form result pages',
  'meta.formNotStored': 'form result pages',
  'servicePages.notAccepted': 'form result pages',
  'servicePages.tooManyAttempts': 'form result pages',
  'servicePages.notStored': 'form result pages',
  'servicePages.backToNewsletter': 'form result pages',
  'servicePages.backToContact': 'form result pages',
  'servicePages.formRefused': 'form refused page (sent by the ingest service)',
  'meta.contactCheckInbox': 'contact pages',
  'meta.contactConfirm': 'contact pages',
  'meta.contactConfirmed': 'contact pages',
  'meta.contactLinkInvalid': 'contact pages',
  'servicePages.contact': 'contact pages',
  mail: 'confirmation mail',
  'mail.contactConfirm': 'contact confirmation mail',
  'mail.alreadySubscribed': '"already subscribed" mail',
  'mail.sales': 'sales mail',
};

/** The name of the strings shown on every page. */
export const EVERY_PAGE = 'every page';

/**
 * The page a string shows on, by its key, as `sitegen status` groups them.
 *
 * @example pageOfKey('hero.title')        // 'home'
 * @example pageOfKey('meta.privacy.title') // 'privacy'
 * @example pageOfKey('footer.copyright')  // 'every page'
 * @example pageOfKey('mail.confirm.subject') // 'confirmation mail' (sent by the ingest service)
 */
export function pageOfKey(key: string): string {
  const prefix = Object.keys(KEY_PREFIX_PAGES)
    .filter((p) => key === p || key.startsWith(`${p}.`))
    .sort((a, b) => b.length - a.length)[0];
  return prefix ? KEY_PREFIX_PAGES[prefix]! : EVERY_PAGE;
}
