/**
 * DKIM signing, checked by an implementation that is not nodemailer's: Debian's python3-dkim
 * (dkimpy), given the public key through its DNS hook. The key and its TXT record are made with
 * the operators' guide's own openssl commands; the mails are the real service's, received by a
 * real SMTP peer. A mail changed after signing fails, and a key that cannot be used stops start-up
 * with one line.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startService } from '../../../ingest/server.ts';
import type { SmtpPeer } from '../../helpers/smtp-peer.ts';
import { mailScaffold } from './scaffold.ts';
import { configFor, contact, eventually, postJson, signup, solvedCaptcha } from '../fixtures.ts';

const { later, peer, folder } = mailScaffold();
const BIN = new URL('../../../ingest/bin.js', import.meta.url).pathname;

// The system's Python, where apt installs python3-dkim (`python3` on PATH may be another one).
const PYTHON = '/usr/bin/python3';
const HAS_DKIMPY = existsSync(PYTHON) && spawnSync(PYTHON, ['-c', 'import dkim']).status === 0;
const INSTALL_HINT = 'the DKIM test needs Debian\'s python3-dkim (apt-get install -y python3-dkim)';
// Without it a developer's run skips these tests with the hint; CI installs it (.ci/run) and fails without it.
const withDkimpy = HAS_DKIMPY || process.env.CI ? it : it.skip;
if (!HAS_DKIMPY && !process.env.CI) process.stderr.write(`dkim.test.ts: ${INSTALL_HINT}; skipping it.\n`);

// dkimpy verifies the first DKIM-Signature of the message read from stdin, looking up
// `<selector>._domainkey.<domain>` through the hook, which knows exactly one record.
const VERIFY = `
import sys, dkim
record, name = sys.argv[1].encode(), sys.argv[2].encode()
def dnsfunc(query, timeout=5):
    return record if query.rstrip(b'.').lower() == name else None
print('pass' if dkim.verify(sys.stdin.buffer.read(), dnsfunc=dnsfunc) else 'fail')
`;

/** What dkimpy says of `raw`, given the TXT `record` published at `name`. */
function dkimpy(raw: string, record: string, name: string): string {
  return execFileSync(PYTHON, ['-c', VERIFY, record, name], { input: Buffer.from(raw, 'utf8') }).toString().trim();
}

// openssl writes its progress dots to stderr.
const QUIET: { stdio: ['ignore', 'pipe', 'ignore'] } = { stdio: ['ignore', 'pipe', 'ignore'] };

/** A key pair made as docs/operators.md says: the PEM file, and the TXT record to publish. */
function operatorsKey(dir: string): { keyFile: string; record: string } {
  const keyFile = join(dir, 'dkim.pem');
  execFileSync('openssl', ['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', keyFile], QUIET);
  const publicKey = execFileSync('sh', ['-c', `openssl pkey -in '${keyFile}' -pubout -outform DER | openssl base64 -A`], QUIET).toString().trim();
  return { keyFile, record: `v=DKIM1; k=rsa; p=${publicKey}` };
}

/** The service signing as `d=mail.example.org; s=s2026` and sending to `smtp`. */
async function signingService(smtp: SmtpPeer, keyFile: string) {
  const env = {
    SMTP_URL: `${smtp.url}?ignoreTLS=true`,
    MAIL_FROM: 'MaskWise <forms@mail.example.org>',
    SALES_EMAIL: 'sales@example.org',
    SITE_URL: 'https://www.example.org',
    DKIM_DOMAIN: 'mail.example.org',
    DKIM_SELECTOR: 's2026',
    DKIM_PRIVATE_KEY_FILE: keyFile,
  };
  const running = await startService(configFor(folder(), env), { pollMs: 20, logStream: { write: () => {} } });
  later(running.close);
  return running;
}

const signature = (raw: string) => /^DKIM-Signature:((?:.*)(?:\r?\n[ \t].*)*)/im.exec(raw)?.[1]?.replace(/\s+/g, '') ?? '';
const tag = (raw: string, name: string) => new RegExp(`(?:^|;)${name}=([^;]*)`).exec(signature(raw))?.[1];
const DNS_NAME = 's2026._domainkey.mail.example.org';

describe('DKIM signing', () => {
  withDkimpy('signs the sales mail and the confirmation mail so that dkimpy verifies them, unsubscribe headers included', async () => {
    const smtp = await peer();
    const { keyFile, record } = operatorsKey(folder());
    const running = await signingService(smtp, keyFile);
    expect((await postJson(running.app, '/api/newsletter', signup({ email: 'lena@example.de', lang: 'de' }))).statusCode).toBe(201);
    expect((await postJson(running.app, '/api/contact', contact({ captcha: await solvedCaptcha(running.app) }))).statusCode).toBe(201);
    await eventually(() => smtp.messages.length === 2);

    const confirmation = smtp.messages.find((raw) => /^List-Unsubscribe:/im.test(raw))!;
    const sales = smtp.messages.find((raw) => raw !== confirmation)!;
    for (const raw of [confirmation, sales]) {
      expect(tag(raw, 'd')).toBe('mail.example.org');
      expect(tag(raw, 's')).toBe('s2026');
      expect(dkimpy(raw, record, DNS_NAME)).toBe('pass');
      // The signature is folded at its spaces; only its header list and its base64 lines, which have none, may pass 78 characters.
      const long = raw.slice(0, raw.indexOf('\r\n\r\n')).split('\r\n').filter((line) => line.length > 78);
      expect(long.filter((line) => /\S\s+\S/.test(line.trim()))).toEqual([]);
    }
    // RFC 8058 §4: one-click unsubscribe counts only when both headers are signed.
    expect(tag(confirmation, 'h')!.split(':')).toEqual(expect.arrayContaining(['from', 'subject', 'date', 'message-id', 'to', 'list-unsubscribe', 'list-unsubscribe-post', 'list-id', 'auto-submitted']));
    expect(tag(sales, 'h')!.split(':')).toEqual(expect.arrayContaining(['from', 'reply-to', 'subject', 'to', 'auto-submitted']));
  });

  withDkimpy('fails a mail changed after signing: a header, the body, or another key in DNS', async () => {
    const smtp = await peer();
    const { keyFile, record } = operatorsKey(folder());
    const running = await signingService(smtp, keyFile);
    await postJson(running.app, '/api/newsletter', signup({ email: 'lena@example.de', lang: 'de' }));
    await eventually(() => smtp.messages.length === 1);
    const raw = smtp.messages[0]!;
    expect(dkimpy(raw, record, DNS_NAME)).toBe('pass');

    const toOther = raw.replace(/^To: lena@example\.de/m, 'To: mallory@example.net');
    expect(toOther).not.toBe(raw);
    expect(dkimpy(toOther, record, DNS_NAME)).toBe('fail');
    const blank = raw.indexOf('\r\n\r\n');
    const otherBody = raw.slice(0, blank) + raw.slice(blank).replace(/[a-z]/, 'Q');
    expect(otherBody).not.toBe(raw);
    expect(dkimpy(otherBody, record, DNS_NAME)).toBe('fail');
    expect(dkimpy(raw, operatorsKey(folder()).record, DNS_NAME)).toBe('fail');
  });
});

describe('a DKIM key that cannot be used', () => {
  it('stops start-up with one line naming the file and what is wrong, never its content', async () => {
    const dir = folder();
    const smtp = await peer();
    const notAKey = join(dir, 'not-a-key.pem');
    writeFileSync(notAKey, 'secret-bytes-that-must-not-be-echoed\n');
    const publicOnly = join(dir, 'public.pem');
    execFileSync('sh', ['-c', `openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 | openssl pkey -pubout -out '${publicOnly}'`], QUIET);
    const ed25519 = join(dir, 'ed25519.pem');
    execFileSync('openssl', ['genpkey', '-algorithm', 'ED25519', '-out', ed25519], QUIET);
    const cases: Array<[string, RegExp]> = [
      [join(dir, 'missing.pem'), /^DKIM_PRIVATE_KEY_FILE \S+missing\.pem cannot be read \(ENOENT\)$/],
      [notAKey, /^DKIM_PRIVATE_KEY_FILE \S+not-a-key\.pem holds no private key in PEM form/],
      [publicOnly, /^DKIM_PRIVATE_KEY_FILE \S+public\.pem holds no private key in PEM form/],
      [ed25519, /^DKIM_PRIVATE_KEY_FILE \S+ed25519\.pem holds a key of type ed25519; DKIM signing here needs an RSA key$/],
    ];
    for (const [keyFile, line] of cases) {
      const error = await signingService(smtp, keyFile).then(
        () => null,
        (failure: unknown) => failure as { code?: string; detail?: string },
      );
      expect(error?.code).toBe('dkim_key_invalid');
      expect(error?.detail).toMatch(line);
      expect(error?.detail).not.toContain('\n');
      expect(error?.detail).not.toContain('secret-bytes');
    }
  });

  it('stops `ingest serve` before it listens, with the line and exit code 2', () => {
    const dir = folder();
    const notAKey = join(dir, 'dkim.pem');
    writeFileSync(notAKey, 'secret-bytes-that-must-not-be-echoed\n');
    const env = { PATH: process.env.PATH ?? '', DATA_DIR: dir, PORT: '0', MAIL_FROM: 'forms@example.org', DKIM_DOMAIN: 'example.org', DKIM_SELECTOR: 'mail', DKIM_PRIVATE_KEY_FILE: notAKey };
    const result = spawnSync(process.execPath, [BIN, 'serve'], { env, encoding: 'utf8', timeout: 60_000 });
    expect(result.status).toBe(2);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe(`ingest: DKIM_PRIVATE_KEY_FILE ${notAKey} holds no private key in PEM form (-----BEGIN PRIVATE KEY----- or -----BEGIN RSA PRIVATE KEY-----)`);
    expect(lines.slice(1)).toEqual([expect.stringMatching(/^ingest: The DKIM signing key \(DKIM_PRIVATE_KEY_FILE\) cannot be used\./)]);
    expect(result.stderr).not.toContain('secret-bytes');
  }, 60_000);
});
