/**
 * TLS to the mail relay, through the real service and a real SMTP peer that offers no STARTTLS but
 * takes AUTH in clear text (a relay, or a machine in the middle, that stripped STARTTLS): where
 * TLS is required the peer gets no credentials and no lead, the mail stays queued and the operator
 * reads why; the explicit opt-out in `SMTP_URL` sends.
 *
 * A relay not on loopback is reached by this machine's own name (`os.hostname()`, which the
 * policy counts as remote, whatever it resolves to), the peer listening on the address it
 * resolves to; the loopback case forces the policy with `?starttls=required`.
 */
import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { type RunningService, startService } from '../../../ingest/server.ts';
import { type SmtpPeer, smtpPeer } from '../../helpers/smtp-peer.ts';
import { mailScaffold } from './scaffold.ts';
import { configFor, contact, eventually, postJson, rowsOf, solvedCaptcha } from '../fixtures.ts';

const { later, folder } = mailScaffold();
const FAST_RETRY = { firstDelayMs: 30, maxDelayMs: 200, giveUpAfterMs: 60_000, jitter: 0.2 };

/** A peer taking clear-text AUTH on `host`. */
async function strippedRelay(host = '127.0.0.1'): Promise<SmtpPeer> {
  const smtp = await smtpPeer({ host, auth: true });
  later(smtp.close);
  return smtp;
}

/** Starts the service with `SMTP_URL=smtpUrl`, posts one contact, and returns it with its log lines. */
async function leadVia(smtpUrl: string): Promise<{ running: RunningService; logs: string[] }> {
  const logs: string[] = [];
  const running = await startService(configFor(folder(), { SMTP_URL: smtpUrl, SALES_EMAIL: 'sales@example.com', LOG_LEVEL: 'info' }), {
    retryPolicy: FAST_RETRY,
    pollMs: 20,
    logStream: { write: (line: string) => void logs.push(line) },
  });
  later(running.close);
  const res = await postJson(running.app, '/api/contact', contact({ captcha: await solvedCaptcha(running.app) }));
  expect(res.statusCode).toBe(201);
  return { running, logs };
}

/** Asserts that the peer saw tries but no login and no mail, and that the row waits with the reason an operator reads. */
async function heldBack(smtp: SmtpPeer, running: RunningService, logs: string[]): Promise<void> {
  await eventually(() => smtp.connections >= 2);
  expect(smtp.logins).toEqual([]);
  expect(smtp.messages).toEqual([]);
  expect(smtp.received).toEqual([]);
  const [row] = await rowsOf(running.backend, 'SELECT status, last_error FROM outbox');
  // Queued, tried again and again (it may be on its way out to the peer right now), never failed.
  expect(row).toMatchObject({ status: expect.stringMatching(/^(pending|sending)$/), last_error: expect.stringMatching(/^the SMTP relay offers no STARTTLS .* add \?starttls=optional to SMTP_URL/) });
  expect(logs.join('\n')).toMatch(/"msg":"sales mail failed, will retry"/);
  expect(logs.join('\n')).toContain('offers no STARTTLS');
  const metrics = (await running.app.inject({ method: 'GET', url: '/metrics' })).body;
  expect(metrics).toMatch(/^ingest_mail_sends_total\{kind="sales",outcome="retried"\} [1-9]/m);
  expect(metrics).not.toMatch(/^ingest_mail_sends_total\{kind="sales",outcome="failed"\}/m);
}

describe('TLS to the SMTP relay', () => {
  it('regression: a relay not on loopback that offers no STARTTLS gets no AUTH and no lead; the mail waits and the log says why', async () => {
    const name = hostname();
    const smtp = await strippedRelay((await lookup(name)).address);
    const { running, logs } = await leadVia(`smtp://forms:app-password@${name}:${smtp.port}`);
    await heldBack(smtp, running, logs);
  });

  it('holds the same on loopback when SMTP_URL asks for STARTTLS', async () => {
    const smtp = await strippedRelay();
    const { running, logs } = await leadVia(`smtp://forms:app-password@127.0.0.1:${smtp.port}?starttls=required`);
    await heldBack(smtp, running, logs);
  });

  it('sends in clear text, login included, when SMTP_URL opts out with ?starttls=optional', async () => {
    const name = hostname();
    const smtp = await strippedRelay((await lookup(name)).address);
    const { running } = await leadVia(`smtp://forms:app-password@${name}:${smtp.port}?starttls=optional`);
    await eventually(() => smtp.messages.length === 1);
    expect(smtp.logins).toEqual(['forms:app-password']);
    expect(smtp.recipients).toEqual([['sales@example.com']]);
    await eventually(async () => (await running.backend.outbox.counts()).sent === 1);
  });
});
