/**
 * One layout and one brand for every mail the service sends, with plain text parts as complete as
 * the HTML ones and each language's punctuation in both: checked on every kind of mail in every
 * language, as `ingest preview-mail` renders them.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ICONS } from '../../../cli/site/asset-paths.ts';
import { MAIL_COLOURS, MAIL_LOGO_PATH } from '../../../ingest/mail/messages/mail-layout.ts';
import { mailSamples } from '../../../ingest/mail/messages/preview-samples.ts';
import { typeset } from '../../../ingest/mail/messages/typography.ts';
import { SITE_CONTENT } from '../fixtures.ts';

const SITE = 'https://www.example.com';
const samples = mailSamples({ from: 'forms@example.com', to: 'sales@example.com', timeZone: 'Europe/Madrid', content: SITE_CONTENT, siteUrl: SITE, apiUrl: null, linkDays: 7 });
const NNBSP = '\u202F';

const unescape = (html: string) => html.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
const textOf = (html: string) => unescape(html.replace(/<br>/g, '\n').replace(/<[^>]+>/g, ''));
/** The inner HTML of every `tag` element whose opening tag matches `attributes`. */
const elements = (html: string, tag: string, attributes = '[^>]*') => [...html.matchAll(new RegExp(`<${tag}${attributes}>([\\s\\S]*?)</${tag}>`, 'g'))].map((m) => m[1]!);

describe('every mail the service sends', () => {
  it('covers each kind of mail in each of the seven languages', () => {
    expect(samples).toHaveLength(6 * 7);
  });

  it.each(samples.map((s) => [s.name, s.mail] as const))('%s wears the site\'s teal and its logo, with a wordmark that reads when images are blocked', (_name, mail) => {
    expect(mail.html).not.toContain('#1d4ed8');
    expect(mail.html).toContain(`border-top:4px solid ${MAIL_COLOURS.accent}`);
    expect(mail.html).toMatch(new RegExp(`<a href="${SITE}"[^>]*><img src="${SITE}${MAIL_LOGO_PATH}" width="32" height="32" alt=""[^>]*> <span[^>]*>MaskWise</span></a>`));
    for (const button of mail.html.matchAll(/<a [^>]*display:inline-block[^>]*>/g)) expect(button[0]).toContain(`background:${MAIL_COLOURS.accent};color:#ffffff`);
    expect(mail.html).toMatch(/<title>[^<]+<\/title>/);
  });

  it('takes its logo from the icon every site build writes, and its colours from the site\'s logo and buttons', () => {
    expect(MAIL_LOGO_PATH).toBe(ICONS.any192);
    const logo = readFileSync(new URL('../../../templates/layout/Logo.tsx', import.meta.url), 'utf8');
    expect(logo).toContain('fill-teal-600'); // the tile: Tailwind's teal-600, #0d9488
    expect(logo).toContain(`stroke="${MAIL_COLOURS.accent}"`); // teal-700, the site's buttons (bg-teal-700) too
    expect(MAIL_COLOURS.logoTile).toBe('#0d9488');
  });

  it.each(samples.map((s) => [s.name, s.mail] as const))('%s has a plain text part with every link and fact of its HTML part', (_name, mail) => {
    const hrefs = [...mail.html.matchAll(/href="([^"]+)"/g)].map((m) => unescape(m[1]!));
    expect(hrefs.length).toBeGreaterThan(1);
    for (const href of hrefs) expect(mail.text).toContain(href);
    const facts = [
      ...elements(mail.html, 'h1'),
      ...elements(mail.html, 'th'),
      ...elements(mail.html, 'td'),
      ...elements(mail.html, 'p', ' style="margin:0 0 16px"'),
      ...elements(mail.html, 'blockquote'),
    ].map(textOf);
    for (const fact of facts) expect(mail.text).toContain(fact);
  });

  it.each(samples.filter((s) => s.name.endsWith('.fr')).map((s) => [s.name, s.mail] as const))(
    '%s puts a narrow no-break space before French colons, semicolons, question and exclamation marks in both parts',
    (name, mail) => {
      // What the visitor typed is shown as typed; the service's own texts are checked.
      const own = (part: string) => part.replace(/Bonjour,\s+est-ce que[^<?]*\?/g, '');
      for (const part of [own(mail.text), own(textOf(mail.html.replace(/<head>[\s\S]*<\/head>/, '')))]) {
        expect(part).not.toMatch(/[ \u00A0][:;!?»]/);
        expect(part).toContain(`${NNBSP}:`);
      }
      if (name.startsWith('newsletter-confirm')) expect(mail.text).toMatch(new RegExp(`^Confirmer mon inscription${NNBSP}: https://`, 'm'));
      if (name.startsWith('sales')) expect(mail.subject).toContain(`${NNBSP}: `);
    },
  );

  it.each(samples.filter((s) => !s.name.endsWith('.fr')).map((s) => [s.name, s.mail] as const))('%s has no French spacing', (_name, mail) => {
    expect(mail.text).not.toContain(NNBSP);
    expect(mail.text).not.toMatch(/\S :/);
  });
});

describe('typeset', () => {
  it('spaces French punctuation with narrow no-break spaces and leaves times, URLs and other languages alone', () => {
    expect(typeset('fr', 'Confirmer mon inscription: ici ; oui! « bon » vraiment ?')).toBe(
      `Confirmer mon inscription${NNBSP}: ici${NNBSP}; oui${NNBSP}! «${NNBSP}bon${NNBSP}» vraiment${NNBSP}?`,
    );
    expect(typeset('fr', 'à 05:56, voir https://example.com/?a=1')).toBe('à 05:56, voir https://example.com/?a=1');
    expect(typeset('en', 'Confirm: now!')).toBe('Confirm: now!');
    expect(typeset('de', 'Bitte bestätigen Sie:')).toBe('Bitte bestätigen Sie:');
  });
});
