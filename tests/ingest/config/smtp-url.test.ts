/**
 * The TLS decision for `SMTP_URL`, as an operator meets it: which relays get STARTTLS required,
 * the explicit opt-out, and the one line a bad value gets (without the password).
 */
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../ingest/config.ts';
import { smtpTransport } from '../../../ingest/config/smtp-url.ts';

/** The `mail` part of the configuration for `SMTP_URL=url`, or its error lines. */
function mailOf(url: string) {
  const result = resolveConfig({ SMTP_URL: url }, '/srv');
  return result.ok ? result.config.mail : result.errors;
}

describe('SMTP_URL and TLS', () => {
  it('requires STARTTLS from every relay that is not on loopback, whether named or addressed', () => {
    for (const host of ['mail.example.com', '10.0.0.5', '192.0.2.2', '[fd00::2]', '[::ffff:10.0.0.1]', 'localhost.example.com', '127.0.0.1.nip.io', 'vm']) {
      expect(smtpTransport(`smtp://user:pw@${host}:587`), host).toEqual({ ok: true, url: `smtp://user:pw@${host}:587`, tls: 'required' });
    }
    expect(mailOf('smtp://forms%40example.com:app-password@smtp.example.com:587')).toEqual({
      kind: 'smtp',
      url: 'smtp://forms%40example.com:app-password@smtp.example.com:587',
      tls: 'required',
      maxConnections: 1,
    });
  });

  it('lets a relay on loopback stay plain, and uses TLS from the first byte with smtps://', () => {
    for (const host of ['127.0.0.1', '127.0.0.53', '[::1]', 'localhost', 'LOCALHOST']) {
      expect(smtpTransport(`smtp://${host}:25`), host).toMatchObject({ ok: true, tls: 'optional' });
    }
    expect(smtpTransport('smtps://user:pw@mail.example.com:465')).toEqual({ ok: true, url: 'smtps://user:pw@mail.example.com:465', tls: 'implicit' });
    // nodemailer's own options that do not touch TLS still reach it.
    expect(smtpTransport('smtp://127.0.0.1:25?ignoreTLS=true')).toMatchObject({ ok: true, url: 'smtp://127.0.0.1:25?ignoreTLS=true', tls: 'optional' });
    expect(smtpTransport('smtp://mail.example.com:587?pool=true')).toMatchObject({ ok: true, tls: 'required' });
  });

  it('takes the explicit opt-out (and the opposite on loopback) from ?starttls=, and keeps it out of the URL nodemailer reads', () => {
    expect(mailOf('smtp://user:pw@relay.internal:25?starttls=optional')).toMatchObject({ url: 'smtp://user:pw@relay.internal:25', tls: 'optional' });
    expect(smtpTransport('smtp://relay.internal:25?starttls=optional&ignoreTLS=true')).toEqual({ ok: true, url: 'smtp://relay.internal:25?ignoreTLS=true', tls: 'optional' });
    expect(smtpTransport('smtp://127.0.0.1:2525?starttls=required')).toEqual({ ok: true, url: 'smtp://127.0.0.1:2525', tls: 'required' });
  });

  it('refuses, in one line and without the password, a bad starttls value and the nodemailer options that would undo it', () => {
    const refused: Array<[string, RegExp]> = [
      ['smtp://u:hunter2@mail.example.com:587?starttls=no', /^SMTP_URL must say \?starttls=required or \?starttls=optional/],
      ['smtp://u:hunter2@mail.example.com:587?starttls=optional&starttls=required', /^SMTP_URL must say \?starttls=required or \?starttls=optional \(once/],
      ['smtps://u:hunter2@mail.example.com:465?starttls=optional', /^SMTP_URL must not set starttls with smtps:\/\//],
      ['smtp://u:hunter2@mail.example.com:587?requireTLS=false', /^SMTP_URL must not set requireTLS: write \?starttls=required/],
      ['smtp://u:hunter2@127.0.0.1:25?requireTLS=true', /^SMTP_URL must not set requireTLS/],
      ['smtp://u:hunter2@mail.example.com:587?secure=false', /^SMTP_URL must not set secure: write smtps:\/\//],
      ['smtp://u:hunter2@mail.example.com:587?ignoreTLS=true', /^SMTP_URL must not set ignoreTLS while STARTTLS is required .* add \?starttls=optional/],
      ['smtp://u:hunter2@mail.example.com:587?opportunisticTLS=true', /^SMTP_URL must not set opportunisticTLS while STARTTLS is required/],
      ['http://u:hunter2@mail.example.com', /^SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/],
    ];
    for (const [url, message] of refused) {
      const errors = mailOf(url);
      expect(errors, url).toEqual([expect.stringMatching(message)]);
      expect(String(errors)).not.toContain('hunter2');
      expect(String(errors)).not.toContain('\n');
    }
  });
});
