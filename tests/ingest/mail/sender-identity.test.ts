/**
 * Who the mails say they are from, and the headers every kind of mail carries, as a real SMTP peer
 * receives them from the real service: `MAIL_FROM` with a display name, the Message-ID and
 * List-Id under the sender's domain, `Auto-Submitted: auto-generated` on every mail (RFC 3834),
 * the one-click unsubscribe headers on the newsletter's mails only, and header lines folded within
 * 78 characters wherever they hold a space to fold at (RFC 5322 §2.1.1).
 */
import { describe, expect, it } from 'vitest';
import { manualClock } from '../../../ingest/clock.ts';
import { resolveConfig } from '../../../ingest/config.ts';
import { startService } from '../../../ingest/server.ts';
import { mailScaffold } from './scaffold.ts';
import { configFor, contact, eventually, postJson, signup, solvedCaptcha } from '../fixtures.ts';

const { later, peer, folder } = mailScaffold();

const SITE_URL = 'https://www.example.org';

/** The header block of a raw message, folded lines joined. */
const headerBlock = (raw: string) => raw.slice(0, raw.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ');
const header = (raw: string, name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(headerBlock(raw))?.[1];

/** A raw message with quoted-printable soft breaks and escapes undone (to read a link in the body). */
const decoded = (raw: string) =>
  Buffer.from(raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8');

describe('MAIL_FROM', () => {
  it('takes a bare address or one with a display name, quoted or not, and refuses anything else with one line', () => {
    const from = (MAIL_FROM: string) => resolveConfig({ MAIL_FROM }, '/');
    expect(from('forms@example.com')).toMatchObject({ ok: true, config: { mailFrom: 'forms@example.com' } });
    expect(from('MaskWise <forms@example.com>')).toMatchObject({ ok: true, config: { mailFrom: '"MaskWise" <forms@example.com>' } });
    expect(from('"MaskWise, Inc." <forms@example.com>')).toMatchObject({ ok: true, config: { mailFrom: '"MaskWise, Inc." <forms@example.com>' } });
    expect(from('Équipe Ventes <forms@example.com>')).toMatchObject({ ok: true, config: { mailFrom: '"Équipe Ventes" <forms@example.com>' } });
    for (const bad of ['MaskWise', '<forms@example.com', 'a@b.com, c@d.com', 'Mask"Wise <forms@example.com>', ' <forms@example.com>', 'Mask\u0007Wise <forms@example.com>']) {
      const result = from(bad);
      expect(result.ok, bad).toBe(false);
      if (!result.ok) expect(result.errors).toEqual([`MAIL_FROM must be one email address, with or without a display name: forms@example.com or MaskWise <forms@example.com> (got ${JSON.stringify(bad.trim())})`]);
    }
  });

  it('refuses DKIM settings that are incomplete or sign for a domain that is not the sender\'s', () => {
    const dkim = { DKIM_DOMAIN: 'example.com', DKIM_SELECTOR: 'mail', DKIM_PRIVATE_KEY_FILE: 'dkim.pem' };
    expect(resolveConfig({ MAIL_FROM: 'MaskWise <forms@mail.example.com>', ...dkim }, '/srv')).toMatchObject({
      ok: true,
      config: { dkim: { domain: 'example.com', selector: 'mail', keyFile: '/srv/dkim.pem' } },
    });
    expect(resolveConfig({ MAIL_FROM: 'forms@Example.COM', ...dkim, DKIM_DOMAIN: 'EXAMPLE.com' }, '/')).toMatchObject({ ok: true });
    expect(resolveConfig({ MAIL_FROM: 'forms@example.com', DKIM_DOMAIN: 'example.com' }, '/')).toEqual({
      ok: false,
      errors: ['DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY_FILE must be set together (signing needs all three) or not at all'],
    });
    for (const MAIL_FROM of ['forms@example.org', 'forms@notexample.com']) {
      const result = resolveConfig({ MAIL_FROM, ...dkim }, '/');
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.errors[0]).toMatch(/^DKIM_DOMAIN must be the domain of MAIL_FROM's address or a parent of it, .* \(got "example\.com" with MAIL_FROM at "(example\.org|notexample\.com)"\)$/);
    }
    expect(resolveConfig({ ...dkim, DKIM_SELECTOR: 'a b' }, '/')).toMatchObject({ ok: false });
    expect(resolveConfig({}, '/')).toMatchObject({ ok: true, config: { dkim: null, mail: { kind: 'file' } } });
  });
});

describe('every kind of mail, as the SMTP peer receives it', () => {
  it('comes from the display name and address of MAIL_FROM, auto-generated, identified under its domain, folded within 78 characters where it can be', async () => {
    const smtp = await peer();
    const env = { SMTP_URL: `${smtp.url}?ignoreTLS=true`, MAIL_FROM: 'MaskWise Forms <forms@mail.example.org>', SALES_EMAIL: 'sales@example.org', SITE_URL, ALLOWED_ORIGINS: SITE_URL };
    const clock = manualClock(Date.now());
    const running = await startService(configFor(folder(), env), { clock, pollMs: 20, logStream: { write: () => {} } });
    later(running.close);
    const mailTo = (address: string) => smtp.messages.filter((_, i) => smtp.recipients[i]!.includes(address));

    // The sales mail, and the contact confirmation of a plain form post (no captcha).
    expect((await postJson(running.app, '/api/contact', contact({ captcha: await solvedCaptcha(running.app) }))).statusCode).toBe(201);
    const plain = { firstName: 'Lena', lastName: 'Vogel', email: 'lena.plain@example.de', phone: '', companyName: '', country: 'de', message: 'Hallo', intent: 'demo', lang: 'de', website: '' };
    const posted = await running.app.inject({ method: 'POST', url: '/api/contact', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: SITE_URL }, payload: new URLSearchParams(plain).toString() });
    expect(posted.statusCode).toBe(303);
    // The newsletter's confirmation; confirmed, then signed up again: the "already subscribed" mail.
    await postJson(running.app, '/api/newsletter', signup({ email: 'lena@example.de', lang: 'de' }));
    await eventually(() => mailTo('lena@example.de').length === 1);
    const token = decodeURIComponent(/\/de\/newsletter\/confirm\?token=([\w.%-]+)/.exec(decoded(mailTo('lena@example.de')[0]!))![1]!);
    const confirmed = await running.app.inject({ method: 'POST', url: `/api/newsletter/confirm?token=${encodeURIComponent(token)}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'lang=de' });
    expect(confirmed.statusCode).toBe(303);
    // One mail per mailbox per 10 minutes (the per-recipient cap).
    clock.advance(11 * 60_000);
    await postJson(running.app, '/api/newsletter', signup({ email: 'lena@example.de', lang: 'de' }));
    await eventually(() => smtp.messages.length === 4);

    const [confirmation, alreadySubscribed] = mailTo('lena@example.de');
    const kinds = { sales: mailTo('sales@example.org')[0]!, contactConfirmation: mailTo('lena.plain@example.de')[0]!, confirmation: confirmation!, alreadySubscribed: alreadySubscribed! };
    for (const [kind, raw] of Object.entries(kinds)) {
      expect(header(raw, 'From'), kind).toBe('MaskWise Forms <forms@mail.example.org>');
      expect(header(raw, 'Auto-Submitted'), kind).toBe('auto-generated');
      expect(header(raw, 'Message-ID'), kind).toMatch(/^<[0-9a-f]{32}\.[\w-]+\.outbox-\d+@mail\.example\.org>$/);
      // Folding happens at a space; a line longer than 78 characters is one that has none to fold at (a long URL or id).
      const tooLong = raw.slice(0, raw.indexOf('\r\n\r\n')).split('\r\n').filter((line) => line.length > 78);
      expect(tooLong.filter((line) => /\S\s+\S/.test(line.trim())), kind).toEqual([]);
    }
    for (const kind of ['confirmation', 'alreadySubscribed'] as const) {
      expect(header(kinds[kind], 'List-Id'), kind).toBe('MaskWise <newsletter.mail.example.org>');
      expect(header(kinds[kind], 'List-Unsubscribe'), kind).toMatch(/^<https:\/\/www\.example\.org\/api\/newsletter\/unsubscribe\?token=\S+>$/);
      expect(header(kinds[kind], 'List-Unsubscribe-Post'), kind).toBe('List-Unsubscribe=One-Click');
    }
    for (const kind of ['sales', 'contactConfirmation'] as const) {
      expect(header(kinds[kind], 'List-Id'), kind).toBeUndefined();
      expect(header(kinds[kind], 'List-Unsubscribe'), kind).toBeUndefined();
    }
  });
});
