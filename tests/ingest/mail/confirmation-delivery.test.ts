/**
 * The whole double opt-in through the real service and a real SMTP peer, on SQLite and
 * PostgreSQL: a German signup gets one German mail to its address with RFC 8058 headers; the link
 * in it confirms; a sales mail never goes out for a signup.
 */
import { describe, expect, it } from 'vitest';
import { type RunningService, startService } from '../../../ingest/server.ts';
import { mailScaffold } from './scaffold.ts';
import { BACKENDS, configFor, databaseEnv, eventually, postJson, SITE_CONTENT, signup } from '../fixtures.ts';

const { later, peer, folder } = mailScaffold();

/** A raw message with folded header lines joined and quoted-printable soft breaks and escapes undone. */
const decoded = (raw: string) =>
  Buffer.from(
    raw
      .replace(/\r?\n[ \t]+/g, ' ')
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');

describe.each(BACKENDS)('confirmation mail delivery on %s', (kind) => {
  it('mails a German signup once, in German, and its link confirms the subscription', async () => {
    const smtp = await peer();
    const env = { SMTP_URL: `${smtp.url}?ignoreTLS=true`, SITE_URL: 'https://www.example.com', MAIL_FROM: 'news@example.com', ...(await databaseEnv(kind)) };
    const running: RunningService = await startService(configFor(folder(), env), { pollMs: 20, logStream: { write: () => {} } });
    later(running.close);

    const res = await postJson(running.app, '/api/newsletter', signup({ email: 'lena@example.de', name: 'Lena', lang: 'de' }));
    expect(res.json()).toEqual({ ok: true, next: 'confirm_email' });
    await eventually(() => smtp.messages.length === 1);
    const raw = decoded(smtp.messages[0]!);
    expect(smtp.recipients[0]).toEqual(['lena@example.de']);
    expect(raw).toMatch(/^List-Unsubscribe: <https:\/\/www\.example\.com\/api\/newsletter\/unsubscribe\?token=u\.de\.\S+>$/m);
    expect(raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    expect(raw).toContain(SITE_CONTENT.texts.de.mail.confirm.button);
    expect(raw).not.toContain('Lena');

    const link = /https:\/\/www\.example\.com\/de\/newsletter\/confirm\?token=([\w.%-]+)/.exec(raw)!;
    const token = decodeURIComponent(link[1]!);
    const confirmed = await running.app.inject({
      method: 'POST',
      url: `/api/newsletter/confirm?token=${encodeURIComponent(token)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'lang=de',
    });
    expect(confirmed.headers.location).toBe('https://www.example.com/de/newsletter/confirmed');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(smtp.messages).toHaveLength(1);
    expect(await running.backend.outbox.counts()).toMatchObject({ sent: 1, pending: 0, failed: 0 });
  });
});
