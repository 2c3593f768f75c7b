/**
 * The operator's webhook commands through the real CLI (`node ingest/bin.js …`) on the database
 * a service left behind, with a real receiver: `erase` passes the erasure on and says which
 * endpoint confirmed, `export --email` shows what each endpoint was sent, `webhooks failed` lists
 * a refused delivery and `webhooks retry` makes it due again for the next service, `webhooks test`
 * sends a signed ping and fails with its answer when the endpoint refuses it.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { type RunningService, startService } from '../../../ingest/server.ts';
import { webhookReceiver, type WebhookReceiver } from '../../helpers/webhook-receiver.ts';
import { mailScaffold } from '../mail/scaffold.ts';
import { configFor, contact, eventually, postJson, rowsOf, solvedCaptcha } from '../fixtures.ts';
import { runIngest } from '../../helpers/ingest-cli.ts';

const { later, folder } = mailScaffold();

/** The environment of the service and the commands: a SQLite file in `dir`, one endpoint. */
const envFor = (dir: string, receiver: WebhookReceiver) => ({
  DATA_DIR: dir,
  LOG_LEVEL: 'warn',
  CAPTCHA_MIN_FILL_MS: '0',
  WEBHOOK_URL: receiver.url,
  WEBHOOK_SECRET: receiver.secret,
  WEBHOOK_ALLOW_PRIVATE: '1',
  WEBHOOK_TIMEOUT_MS: '2000',
});

/** Runs `ingest ARGS`; resolves with its exit code and output whatever the code. */
function ingest(env: Record<string, string>, ...args: string[]) {
  return runIngest(args, env);
}

/** Starts a service on `dir`, posts a contact from `email`, waits until its webhook is settled (delivered or failed), and stops it. */
async function leadThrough(dir: string, receiver: WebhookReceiver, email: string): Promise<void> {
  const running: RunningService = await startService(configFor(dir, envFor(dir, receiver)), { logStream: { write: () => {} }, webhooks: { pollMs: 20 } });
  try {
    const res = await postJson(running.app, '/api/contact', { ...contact({ email }), captcha: await solvedCaptcha(running.app) });
    expect(res.statusCode).toBe(201);
    await eventually(async () => (await rowsOf(running.backend, "SELECT id FROM webhook_deliveries WHERE status IN ('delivered', 'failed')")).length === 1);
  } finally {
    await running.close();
  }
}

describe('the webhook commands', () => {
  it('erase passes the erasure on and reports the confirmation; export shows what the endpoint was sent', async () => {
    const receiver = await webhookReceiver();
    later(receiver.close);
    const dir = folder();
    await leadThrough(dir, receiver, 'nina@example.com');
    const env = envFor(dir, receiver);

    const exported = await ingest(env, 'export', '--email', 'nina@example.com');
    expect(exported.code).toBe(0);
    const person = JSON.parse(exported.stdout) as { webhooks: Array<Record<string, unknown>> };
    expect(person.webhooks).toEqual([expect.objectContaining({ endpoint: 'default', event_type: 'contact.received', status: 'delivered', body: null })]);

    const erased = await ingest(env, 'erase', '--email', 'NINA@example.com');
    expect(erased.code).toBe(0);
    expect(erased.stdout).toBe('erased NINA@example.com: newsletter 0, contacts 1, outbox 1, webhook records 1\nerasure passed on to default: confirmed (HTTP 204)\n');
    expect(receiver.events().map((event) => [event.type, event.data.email])).toEqual([
      ['contact.received', 'nina@example.com'],
      ['person.erased', 'nina@example.com'],
    ]);
    expect(JSON.parse((await ingest(env, 'export', '--email', 'nina@example.com')).stdout).webhooks).toEqual([]);
  });

  it('lists a refused delivery, sends it again on request, and tests an endpoint with a signed ping', async () => {
    const receiver = await webhookReceiver();
    later(receiver.close);
    const dir = folder();
    receiver.answer = [410];
    await leadThrough(dir, receiver, 'omar@example.com');
    const env = envFor(dir, receiver);

    const failed = await ingest(env, 'webhooks', 'failed');
    expect(failed.code).toBe(0);
    const [header, row] = failed.stdout.trim().split('\n');
    expect(header).toMatch(/^id\s+endpoint\s+event\s+attempts\s+failed at\s+status\s+webhook-id\s+why$/);
    expect(row).toMatch(/^1\s+default\s+contact\.received\s+1\s+\S+Z\s+410\s+msg_[0-9a-f]{32}\s+HTTP 410 Gone$/);
    expect(failed.stdout).not.toContain('omar');

    expect((await ingest(env, 'webhooks', 'retry')).code).toBe(2);
    expect((await ingest(env, 'webhooks', 'retry', '--id', 'x')).stderr).toContain('--id "x" is not a delivery id');
    const retried = await ingest(env, 'webhooks', 'retry', '--all');
    expect(retried.stdout).toBe('1 failed webhook delivery is due again\n');
    const [{ status }] = (await ingest(env, 'export', '--email', 'omar@example.com').then((result) => JSON.parse(result.stdout))).webhooks;
    expect(status).toBe('pending');

    const pinged = await ingest(env, 'webhooks', 'test', '--endpoint', 'default');
    expect(pinged).toMatchObject({ code: 0, stdout: expect.stringMatching(/^default: HTTP 204 in \d+ ms \(webhook-id msg_[0-9a-f]{32}\)\n$/) });
    expect(receiver.events().at(-1)).toMatchObject({ type: 'ping', data: { version: 1, endpoint: 'default' } });

    receiver.answer = [401];
    const refused = await ingest(env, 'webhooks', 'test', '--endpoint', 'default');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^ingest: default \(http:\/\/127\.0\.0\.1:\d+\/hooks\): HTTP 401 Unauthorized after \d+ ms\ningest: The webhook endpoint did not accept the signed ping/);
    const unknown = await ingest(env, 'webhooks', 'test', '--endpoint', 'crm');
    expect([unknown.code, unknown.stderr.split('\n')[0]]).toEqual([2, 'ingest: --endpoint "crm" is not configured (configured: default)']);
  });

  it('never prints a receiver\'s escape sequences or words: webhooks failed (rows an older version stored too) and webhooks test', async () => {
    const receiver = await webhookReceiver();
    later(receiver.close);
    const dir = folder();
    receiver.answer = [410];
    await leadThrough(dir, receiver, 'eve@example.com');
    const env = envFor(dir, receiver);
    // What an older version kept of a receiver's answer: its words, escape sequences and all.
    const hostile = '\u001b]0;owned\u0007\u001b[2J\u001b[31mHTTP 410: no such lead Eve <eve@example.com>\u009b31m';
    const db = new Database(`${dir}/ingest.sqlite`);
    db.prepare('UPDATE webhook_deliveries SET last_error = ?').run(hostile);
    db.close();
    const failed = await ingest(env, 'webhooks', 'failed');
    expect(failed.code).toBe(0);
    expect(failed.stdout).toMatch(/HTTP 410: no such lead Eve <eve@example.com>$/m);
    expect(failed.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);

    receiver.answer = [500];
    receiver.errorBody = '\u001b]0;owned\u0007\u001b[2Jcannot store Eve <eve@example.com>';
    const tested = await ingest(env, 'webhooks', 'test', '--endpoint', 'default');
    expect(tested.code).toBe(1);
    expect(tested.stderr).toMatch(/^ingest: default \(http:\/\/127\.0\.0\.1:\d+\/hooks\): HTTP 500 Internal Server Error after \d+ ms\n/);
    expect(tested.stderr + tested.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]|eve@/);
  });
});
