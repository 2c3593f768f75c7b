import { describe, expect, it } from 'vitest';
import { ISSUE_CODES } from '../../../ingest/contract/schemas.ts';
import { NOT_ACCEPTED_PAGES, TOKEN_FORM_PAGES, type ServicePage } from '../../../ingest/contract/service-pages.ts';
import { DEFAULT_PATHS } from '../../../cli/paths.ts';
import { createTranslator } from '../../../cli/site/i18n.ts';
import { LANGUAGES, type Lang } from '../../../cli/site/languages.ts';
import { loadAllMessages } from '../../../cli/site/locales.ts';
import { allRoutes, fileForPath, homeAnchor, isIndexed, pathFor, type ServicePageId } from '../../../cli/site/routes.ts';
import { loadSiteConfig, placeholderValues } from '../../../cli/site/site-config.ts';
import { decodeEntities, scanTags } from '../../../cli/verify/html-scan.ts';
import { normalizeSpace, readBuilt, useBuiltSite, visibleText } from '../../helpers/built-site.ts';

// The service pages (ingest/contract/service-pages.ts) as the build writes them: the newsletter's,
// the results of a form sent without JavaScript, and those of a contact message sent without it.

const site = loadSiteConfig(DEFAULT_PATHS.contentDir);
const messages = loadAllMessages(DEFAULT_PATHS.contentDir);
const built = useBuiltSite();

const SERVICE_ROUTES = allRoutes().filter((r) => !isIndexed(r.page)) as { page: ServicePageId; lang: Lang; path: string }[];
const TOKEN_PAGES = Object.keys(TOKEN_FORM_PAGES) as (keyof typeof TOKEN_FORM_PAGES)[];
const OTHER_LANGUAGES = LANGUAGES.filter((l) => l !== 'en');

const html = (page: ServicePageId, lang: Lang) => readBuilt(built.outDir, fileForPath(pathFor(page, lang)));
const main = (page: ServicePageId, lang: Lang) => {
  const text = html(page, lang);
  return text.slice(text.indexOf('<main'), text.indexOf('</main>'));
};
/** The visible texts of the page's main content, one per element, in order; the site's addresses and punctuation left out (they are the same in every language). */
const mainTexts = (page: ServicePageId, lang: Lang) =>
  main(page, lang)
    .replace(/<script[\s\S]*?<\/script>/g, '')
    .split(/<[^>]+>/)
    .map((part) => normalizeSpace(visibleText(part)))
    .filter((text) => /\p{L}/u.test(text) && text !== site.privacyEmail && text !== site.email);
/** A translator whose texts have their spaces as the page's texts are compared (French no-break spaces read as spaces). */
const spacesAsShown = (t: ReturnType<typeof createTranslator>) => ((key: string, options?: Record<string, unknown>) => normalizeSpace(t(key, options))) as ReturnType<typeof createTranslator>;
/** The `meta.*` key of a page's title: the "not accepted" pages share one. */
const metaKey = (page: ServicePageId) => (page.startsWith('formNotAccepted') ? 'formNotAccepted' : page);
const links = (page: ServicePage, lang: Lang) => scanTags(main(page, lang)).filter((tag) => tag.name === 'a').map((tag) => tag.attrs.href);

describe('the service pages', () => {
  it('exist in every language: twenty pages each', () => {
    expect(SERVICE_ROUTES).toHaveLength(20 * LANGUAGES.length);
  });

  it.each(SERVICE_ROUTES.map((r) => [r.path, r] as const))('%s is noindex, with no canonical, hreflang or og:url, one h1 and its title', (_path, route) => {
    const page = html(route.page, route.lang);
    const tags = scanTags(page);
    const t = createTranslator(route.lang, messages, placeholderValues(site));
    expect(page).toMatch(new RegExp(`^<!DOCTYPE html><html lang="${route.lang}"`));
    expect(page).toContain('<meta name="robots" content="noindex"/>');
    expect(tags.filter((tag) => tag.name === 'link' && /canonical|alternate/.test(tag.attrs.rel ?? ''))).toEqual([]);
    expect(tags.filter((tag) => tag.name === 'meta' && ['og:url', 'og:locale:alternate'].includes(tag.attrs.property ?? ''))).toEqual([]);
    expect(decodeEntities(/<title>(.*?)<\/title>/.exec(page)?.[1] ?? '')).toBe(t(`meta.${metaKey(route.page)}.title`));
    expect(tags.filter((tag) => tag.name === 'h1')).toHaveLength(1);
  });

  it('are not in the sitemap', () => {
    const sitemap = readBuilt(built.outDir, 'sitemap.xml');
    expect(sitemap).toContain(`<loc>${site.siteUrl}/de/datenschutz</loc>`);
    for (const route of SERVICE_ROUTES) expect(sitemap).not.toContain(`${site.siteUrl}${route.path}<`);
    expect(sitemap).not.toContain('/newsletter/');
    // Under /contact/ only the demo and sales pages are for search engines.
    expect([...sitemap.matchAll(/<loc>[^<]*?(\/contact\/[^<]*)<\/loc>/g)].map((m) => m[1])).toEqual(
      LANGUAGES.flatMap(() => ['/contact/demo', '/contact/sales']),
    );
  });

  describe.each(TOKEN_PAGES)('%s', (page) => {
    it.each(LANGUAGES)('in %s posts to its own URL: method post, no action, a hidden lang and a labelled button', (lang) => {
      const tags = scanTags(main(page, lang));
      const forms = tags.filter((tag) => tag.name === 'form');
      expect(forms).toHaveLength(1);
      expect(forms[0]!.attrs.method).toBe('post');
      expect(forms[0]!.attrs).not.toHaveProperty('action');
      const inputs = tags.filter((tag) => tag.name === 'input');
      expect(inputs.map((tag) => tag.attrs)).toEqual([{ type: 'hidden', name: 'lang', value: lang }]);
      const t = spacesAsShown(createTranslator(lang, messages, placeholderValues(site)));
      const texts = { newsletterConfirm: 'servicePages.confirm', newsletterUnsubscribe: 'servicePages.unsubscribe', contactConfirm: 'servicePages.contact.confirm' }[page];
      const button = /<button type="submit"[^>]*>(.*?)<\/button>/.exec(main(page, lang));
      expect(decodeEntities(button?.[1] ?? '')).toBe(t(`${texts}.button`));
    });

    it('is the TokenForm island, which receives only the service endpoint', () => {
      for (const lang of LANGUAGES) {
        const page_ = html(page, lang);
        expect(page_).toContain('data-island="TokenForm" data-hydrate="load"');
        expect(page_).toContain(`<script type="application/json" data-island-props="TokenForm">${JSON.stringify({ endpoint: `${site.ingestUrl}${TOKEN_FORM_PAGES[page]}` })}</script>`);
      }
    });
  });

  it.each(OTHER_LANGUAGES)('show their texts in %s, none of them the English text', (lang) => {
    for (const page of new Set(SERVICE_ROUTES.map((r) => r.page))) {
      const english = new Set(mainTexts(page, 'en'));
      const texts = mainTexts(page, lang);
      expect(texts.length, page).toBe(english.size);
      expect(texts.filter((text) => english.has(text)), `${page} ${lang}`).toEqual([]);
    }
  });

  it.each(LANGUAGES)('in %s lead home, back to the sign-up form and to the privacy address', (lang) => {
    const signUp = homeAnchor('linkInvalid', lang, 'newsletter');
    expect(signUp).toBe(`${pathFor('home', lang)}#newsletter`);
    expect(links('newsletterConfirmed', lang)).toEqual([pathFor('home', lang)]);
    expect(links('newsletterUnsubscribed', lang)).toEqual([pathFor('home', lang), signUp]);
    expect(links('linkInvalid', lang)).toEqual([`mailto:${site.privacyEmail}`, signUp, pathFor('home', lang)]);
    expect(links('newsletterCheckInbox', lang)).toEqual([pathFor('home', lang)]);
    // Shown by the island instead of the button when the address has no token.
    expect(links('newsletterConfirm', lang)).toEqual([pathFor('linkInvalid', lang)]);
  });
});

describe('the pages of a contact message sent without JavaScript', () => {
  const contactForm = (lang: Lang) => `${pathFor('contact', lang)}#contact-form`;
  /** The page's main text with its tags dropped (not replaced by spaces), so a sentence with a link in it reads as written. */
  const sentences = (page: ServicePageId, lang: Lang) => normalizeSpace(decodeEntities(main(page, lang).replace(/<[^>]+>/g, '')));
  /** A text with a `<mail>` tag as the page shows it. */
  const shown = (text: string) => normalizeSpace(text.replace(/<\/?mail>/g, ''));

  it.each(LANGUAGES)('in %s say to check the inbox (confirmation link, valid 7 days, unconfirmed messages deleted), then lead home and to the form', (lang) => {
    const t = spacesAsShown(createTranslator(lang, messages, placeholderValues(site)));
    expect(mainTexts('contactCheckInbox', lang).slice(0, 3)).toEqual(['title', 'text', 'expiry'].map((key) => t(`servicePages.contact.checkInbox.${key}`)));
    expect(sentences('contactCheckInbox', lang)).toContain(shown(t('servicePages.contact.checkInbox.notReceived')));
    expect(t('servicePages.contact.checkInbox.expiry')).toMatch(/\b7\b/);
    expect(links('contactCheckInbox', lang)).toEqual([`mailto:${site.email}`, pathFor('home', lang), contactForm(lang)]);
  });

  it.each(LANGUAGES)('in %s ask to confirm with a button, and without a token point to the contact\'s "link not valid" page', (lang) => {
    const t = spacesAsShown(createTranslator(lang, messages, placeholderValues(site)));
    expect(mainTexts('contactConfirm', lang)).toEqual([
      ...['title', 'text', 'button', 'ignore'].map((key) => t(`servicePages.contact.confirm.${key}`)),
      t('servicePages.contact.linkInvalid.text'),
      t('servicePages.contact.linkInvalid.whatToDo'),
    ]);
    expect(links('contactConfirm', lang)).toEqual([pathFor('contactLinkInvalid', lang)]);
  });

  it.each(LANGUAGES)('in %s say the confirmed message has gone to the team, with the answer time, and lead home', (lang) => {
    const t = spacesAsShown(createTranslator(lang, messages, placeholderValues(site)));
    expect(mainTexts('contactConfirmed', lang)).toEqual([...['title', 'text', 'reply'].map((key) => t(`servicePages.contact.confirmed.${key}`)), t('servicePages.backHome')]);
    expect(links('contactConfirmed', lang)).toEqual([pathFor('home', lang)]);
  });

  it.each(LANGUAGES)('in %s say an invalid link sent nothing, and lead to the form again, the contact address and home', (lang) => {
    const t = spacesAsShown(createTranslator(lang, messages, placeholderValues(site)));
    expect(mainTexts('contactLinkInvalid', lang).slice(0, 3)).toEqual(['title', 'text', 'whatToDo'].map((key) => t(`servicePages.contact.linkInvalid.${key}`)));
    expect(sentences('contactLinkInvalid', lang)).toContain(shown(t('servicePages.contact.linkInvalid.help')));
    expect(links('contactLinkInvalid', lang)).toEqual([`mailto:${site.email}`, contactForm(lang), pathFor('home', lang)]);
  });
});

describe('the results of a form sent without JavaScript', () => {
  const FORM_PAGES = [...ISSUE_CODES.map((code) => NOT_ACCEPTED_PAGES[code]), 'tooManyAttempts', 'formNotStored'] as const;

  it.each(LANGUAGES)('in %s, each "not accepted" page gives the reason the form itself shows for that issue, and what to do', (lang) => {
    const t = spacesAsShown(createTranslator(lang, messages, placeholderValues(site)));
    for (const code of ISSUE_CODES) {
      const page = NOT_ACCEPTED_PAGES[code];
      expect(normalizeSpace(visibleText(/<h1[^>]*>(.*?)<\/h1>/.exec(main(page, lang))?.[1] ?? '')), page).toBe(t('servicePages.notAccepted.title'));
      // validation.tooLong names the field's limit ({{max}}), which the page cannot know.
      const reason = code === 'tooLong' ? t('servicePages.notAccepted.tooLong') : t(`validation.${code}`);
      expect(mainTexts(page, lang), page).toEqual([t('servicePages.notAccepted.title'), reason, t('servicePages.notAccepted.correct'), t('servicePages.backToNewsletter'), t('servicePages.backToContact')]);
    }
  });

  it.each(LANGUAGES)('in %s say to wait a minute after too many attempts, and to try again or write when nothing was stored', (lang) => {
    const t = spacesAsShown(createTranslator(lang, messages, placeholderValues(site)));
    expect(mainTexts('tooManyAttempts', lang).slice(0, 3)).toEqual(['title', 'text', 'wait'].map((key) => t(`servicePages.tooManyAttempts.${key}`)));
    // The contact address is a link inside the sentence.
    expect(decodeEntities(main('formNotStored', lang).replace(/<[^>]+>/g, ''))).toContain(t('servicePages.notStored.tryAgain').replace(/<\/?mail>/g, ''));
  });

  it.each(LANGUAGES)('in %s lead back to the newsletter sign-up and to the contact form, since either may have sent it', (lang) => {
    const back = [homeAnchor('formNotStored', lang, 'newsletter'), `${pathFor('contact', lang)}#contact-form`];
    expect(back[0]).toBe(`${pathFor('home', lang)}#newsletter`);
    for (const page of FORM_PAGES) expect(links(page, lang), page).toEqual(page === 'formNotStored' ? [`mailto:${site.email}`, ...back] : back);
  });
});

describe('the newsletter form\'s next step', () => {
  it.each(LANGUAGES)('in %s, its island receives the check-inbox texts with {{email}} left for the visitor\'s address', (lang) => {
    const home = readBuilt(built.outDir, fileForPath(pathFor('home', lang)));
    const json = /<script type="application\/json" data-island-props="NewsletterForm">(.*?)<\/script>/.exec(home)?.[1] ?? '{}';
    const { strings } = JSON.parse(json) as { strings: Record<string, string> };
    const t = spacesAsShown(createTranslator(lang, messages, placeholderValues(site)));
    expect(strings.checkInboxTitle).toBe(t('newsletter.checkInboxTitle'));
    expect(strings.checkInboxMessage).toContain('{{email}}');
    expect(strings.checkInboxMessage).not.toContain(site.email);
  });
});
