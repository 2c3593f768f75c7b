import { describe, expect, it } from 'vitest';
import { CONTACT_INTENTS, HONEYPOT_FIELD, LIMITS, newsletterSchema, plainContactSchema } from '../../../ingest/contract/schemas.ts';
import { DEFAULT_PATHS } from '../../../cli/paths.ts';
import { createTranslator } from '../../../cli/site/i18n.ts';
import { LANGUAGES } from '../../../cli/site/languages.ts';
import { loadAllMessages } from '../../../cli/site/locales.ts';
import { fileForPath, pathFor } from '../../../cli/site/routes.ts';
import { loadSiteConfig, placeholderValues } from '../../../cli/site/site-config.ts';
import { decodeEntities, scanTags } from '../../../cli/verify/html-scan.ts';
import { readBuilt, useBuiltSite } from '../../helpers/built-site.ts';

// The forms as the build writes them, which is what a visitor without JavaScript gets.

const site = loadSiteConfig(DEFAULT_PATHS.contentDir);
const messages = loadAllMessages(DEFAULT_PATHS.contentDir);
const built = useBuiltSite();

/** The markup of the first `<form data-form="…">` of a page, up to its end. */
function formOf(html: string, name: string): string {
  const start = html.indexOf(`<form`, html.indexOf(`data-form="${name}"`) - 200);
  return html.slice(start, html.indexOf('</form>', start));
}

describe('the newsletter form without JavaScript', () => {
  it.each(LANGUAGES)('in %s posts its fields to the service: method post, action ingestUrl + /newsletter, the browser checks them', (lang) => {
    const form = formOf(readBuilt(built.outDir, fileForPath(pathFor('home', lang))), 'newsletter');
    const tags = scanTags(form);
    expect(tags[0]!.attrs).toMatchObject({ method: 'post', action: `${site.ingestUrl}/newsletter`, 'data-form': 'newsletter' });
    // The island switches the browser's checks off once it has hydrated, not before.
    expect(tags[0]!.attrs).not.toHaveProperty('novalidate');
    const fields = tags.filter((tag) => tag.name === 'input').map(({ attrs }) => ({
      name: attrs.name,
      type: attrs.type,
      required: 'required' in attrs,
      ...(attrs.maxlength ? { maxlength: Number(attrs.maxlength) } : {}),
      ...(attrs.type === 'checkbox' || attrs.type === 'hidden' ? { value: attrs.value } : {}),
    }));
    expect(fields).toEqual([
      { name: 'name', type: 'text', required: true, maxlength: LIMITS.name },
      { name: 'email', type: 'email', required: true, maxlength: LIMITS.email },
      { name: 'lang', type: 'hidden', required: false, value: lang },
      { name: HONEYPOT_FIELD, type: 'text', required: false },
      { name: 'privacyConsent', type: 'checkbox', required: true, value: 'true' },
      { name: 'marketingConsent', type: 'checkbox', required: false, value: 'true' },
    ]);
    // Exactly the fields of the JSON contract, which the service reads from the form post too.
    expect(fields.map((field) => field.name).sort()).toEqual(Object.keys(newsletterSchema.shape).sort());
    expect(tags.filter((tag) => tag.name === 'button').map((tag) => tag.attrs.type)).toEqual(['submit']);
  });

  it('no longer says that signing up needs JavaScript', () => {
    for (const lang of LANGUAGES) {
      const form = formOf(readBuilt(built.outDir, fileForPath(pathFor('home', lang))), 'newsletter');
      expect(form).not.toContain('<noscript');
      expect(form).not.toContain('JavaScript');
    }
  });
});

describe('the contact form without JavaScript', () => {
  const contactForm = (lang: (typeof LANGUAGES)[number]) => formOf(readBuilt(built.outDir, fileForPath(pathFor('contact', lang))), 'contact');

  it.each(LANGUAGES)('in %s posts its fields to the service: method post, action ingestUrl + /contact, the browser checks them', (lang) => {
    const tags = scanTags(contactForm(lang));
    expect(tags[0]!.attrs).toMatchObject({ method: 'post', action: `${site.ingestUrl}/contact`, 'data-form': 'contact' });
    // The island switches the browser's checks off once it has hydrated, not before.
    expect(tags[0]!.attrs).not.toHaveProperty('novalidate');
    const fields = tags.filter((tag) => ['input', 'select', 'textarea'].includes(tag.name)).map(({ name: tag, attrs }) => ({
      tag,
      name: attrs.name,
      ...(attrs.type ? { type: attrs.type } : {}),
      required: 'required' in attrs,
      ...(attrs.maxlength ? { maxlength: Number(attrs.maxlength) } : {}),
      ...(attrs.type === 'hidden' ? { value: attrs.value } : {}),
    }));
    expect(fields).toEqual([
      { tag: 'select', name: 'intent', required: false },
      { tag: 'input', name: 'firstName', type: 'text', required: true, maxlength: LIMITS.name },
      { tag: 'input', name: 'lastName', type: 'text', required: true, maxlength: LIMITS.name },
      { tag: 'input', name: 'email', type: 'email', required: true, maxlength: LIMITS.email },
      { tag: 'input', name: 'phone', type: 'tel', required: false, maxlength: LIMITS.phone },
      { tag: 'input', name: 'companyName', type: 'text', required: false, maxlength: LIMITS.companyName },
      { tag: 'select', name: 'country', required: true },
      { tag: 'textarea', name: 'message', required: true, maxlength: LIMITS.message },
      { tag: 'input', name: 'lang', type: 'hidden', required: false, value: lang },
      { tag: 'input', name: HONEYPOT_FIELD, type: 'text', required: false },
    ]);
    // The fields of the plain form's contract (no captcha: its sender confirms by mail instead),
    // but the page the visitor came from, which only the script can tell.
    const contract = Object.keys(plainContactSchema.shape).filter((name) => name !== 'sourcePage');
    expect(fields.map((field) => field.name).sort()).toEqual(contract.sort());
    expect(tags.filter((tag) => tag.name === 'button').map((tag) => tag.attrs.type)).toEqual(['submit']);
  });

  it.each(LANGUAGES)('in %s starts on a general question and on no country, which the browser will not send', (lang) => {
    const tags = scanTags(contactForm(lang));
    const options = (select: string) => {
      const start = tags.findIndex((tag) => tag.name === 'select' && tag.attrs.name === select);
      const end = tags.findIndex((tag, i) => i > start && tag.name === 'select');
      return tags.slice(start + 1, end === -1 ? undefined : end).filter((tag) => tag.name === 'option').map((tag) => tag.attrs);
    };
    const intents = options('intent');
    expect(intents.map((option) => option.value)).toEqual([...CONTACT_INTENTS]);
    expect(intents.filter((option) => 'selected' in option).map((option) => option.value)).toEqual(['general']);
    const countries = options('country');
    expect(countries[0]).toMatchObject({ value: '', disabled: '', selected: '' });
    expect(countries.length).toBeGreaterThan(240);
  });

  it.each(LANGUAGES)('in %s has no captcha field; a note only inside <noscript>, with its box, says a confirmation link replaces it', (lang) => {
    const form = decodeEntities(contactForm(lang));
    const t = createTranslator(lang, messages, placeholderValues(site));
    const note = t('contact.captchaNoScript');
    // The box is inside <noscript> too: with JavaScript on, nothing is drawn until the island asks its question.
    const noscript = [...form.matchAll(/<noscript>([\s\S]*?)<\/noscript>/g)].map((match) => match[1]!);
    expect(noscript).toHaveLength(1);
    expect(noscript[0]).toMatch(/^<div class="[^"]*\bbg-slate-50\b[^"]*"><p[^>]*>([^<]*)<\/p><\/div>$/);
    expect(noscript[0]).toContain(`>${note}</p>`);
    expect(form.split(note)).toHaveLength(2);
    expect(form).not.toContain(t('contact.captchaLoading'));
    expect(form).not.toContain('name="answer"');
    expect(form).not.toContain('name="captcha');
  });
});
