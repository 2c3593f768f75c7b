/**
 * The operator's outbox commands through the real CLI (`node ingest/bin.js …`) on the database a
 * service left behind, with a real SMTP peer: `outbox failed` lists the mails the relay refused,
 * `outbox retry` (by kind, by id) queues them again and the next service delivers them, a retry of
 * a row that is not failed says so, and an erasure still removes a failed mail. On PostgreSQL,
 * two retries at once queue each failed row once.
 */
import { describe, expect, it } from 'vitest';
import { openOpsDatabase } from '../../../ingest/store/open-backend.ts';
import { retryFailedOutbox } from '../../../ingest/store/outbox/failed-rows.ts';
import { startService } from '../../../ingest/server.ts';
import type { SmtpPeer } from '../../helpers/smtp-peer.ts';
import { mailScaffold } from './scaffold.ts';
import { BACKENDS, configFor, contact, databaseEnv, eventually, postJson, rowsOf, signup, solvedCaptcha } from '../fixtures.ts';
import { runIngest } from '../../helpers/ingest-cli.ts';

const { later, peer, folder } = mailScaffold();

/** The environment of the service and the commands: a SQLite file in `dir`, mail to `smtp`. */
const envFor = (dir: string, smtp: SmtpPeer) => ({ DATA_DIR: dir, LOG_LEVEL: 'warn', CAPTCHA_MIN_FILL_MS: '0', SMTP_URL: `${smtp.url}?ignoreTLS=true`, SALES_EMAIL: 'sales@example.com' });

/** Runs `ingest ARGS`; resolves with its exit code and output whatever the code. */
function ingest(env: Record<string, string>, ...args: string[]) {
  return runIngest(args, env);
}

/** Runs a service on `env` until `settled` holds for its outbox, posting with `post` first; returns the rows and its failed-mail gauge lines. */
async function serviceRun(env: Record<string, string>, settled: (counts: Record<string, number>) => boolean, post: (app: Awaited<ReturnType<typeof startService>>['app']) => Promise<void> = async () => {}) {
  const running = await startService(configFor(env.DATA_DIR!, env), { pollMs: 20, logStream: { write: () => {} } });
  try {
    await post(running.app);
    await eventually(async () => settled(await running.backend.outbox.counts()));
    const metrics = (await running.app.inject({ method: 'GET', url: '/metrics' })).body;
    return { rows: await rowsOf(running.backend, 'SELECT id, kind, status FROM outbox ORDER BY id'), failedGauge: metrics.match(/^ingest_outbox_failed_rows\{.*$/gm) };
  } finally {
    await running.close();
  }
}

describe('the outbox commands', () => {
  it('list the failed mails, queue them again by kind or id for the next service to deliver, and leave them to erasure', async () => {
    const smtp = await peer();
    const dir = folder();
    const env = envFor(dir, smtp);
    // The relay does not know the sales mailbox yet (a typo in its aliases), nor a subscriber's address.
    smtp.unknownRecipients = ['sales@example.com', 'nobody@example.com'];
    const first = await serviceRun(env, (counts) => counts.failed === 2, async (app) => {
      expect((await postJson(app, '/api/contact', contact({ captcha: await solvedCaptcha(app) }))).statusCode).toBe(201);
      expect((await postJson(app, '/api/newsletter', signup({ email: 'nobody@example.com' }))).statusCode).toBe(201);
    });
    // What an operator alerts on: a failed sales mail is a lead nobody was told about.
    expect(first.failedGauge).toEqual([
      'ingest_outbox_failed_rows{kind="sales"} 1',
      'ingest_outbox_failed_rows{kind="contact_confirm"} 0',
      'ingest_outbox_failed_rows{kind="newsletter_confirm"} 1',
      'ingest_outbox_failed_rows{kind="newsletter_already_subscribed"} 0',
    ]);

    const failed = await ingest(env, 'outbox', 'failed');
    expect(failed.code).toBe(0);
    const [header, ...rows] = failed.stdout.trim().split('\n');
    expect(header).toMatch(/^id\s+kind\s+about\s+attempts\s+queued at\s+last try\s+why$/);
    expect(rows).toEqual([
      expect.stringMatching(/^1\s+sales\s+contact 1\s+1\s+\S+Z\s+\S+Z\s+Can't send mail - all recipients were rejected: 550 5\.1\.1 <address>: Recipient address rejected/),
      expect.stringMatching(/^2\s+newsletter_confirm\s+subscription 1\s+1\s+\S+Z\s+\S+Z\s+Can't send mail/),
    ]);
    expect(failed.stdout).not.toMatch(/@example\.com/);

    expect((await ingest(env, 'outbox', 'retry')).code).toBe(2);
    expect((await ingest(env, 'outbox', 'retry', '--all', '--kind', 'sales')).stderr).toContain('retry needs one of --all, --kind KIND or --id N…');
    expect((await ingest(env, 'outbox', 'retry', '--id', 'x')).stderr).toContain('--id "x" is not an outbox id');

    // The relay's aliases are fixed: the sales mail is queued again, the subscriber's stays failed.
    smtp.unknownRecipients = ['nobody@example.com'];
    expect(await ingest(env, 'outbox', 'retry', '--kind', 'sales')).toMatchObject({ code: 0, stdout: '1 failed mail is queued again (1)\n' });
    expect(await ingest(env, 'outbox', 'retry', '--id', '1', '99')).toMatchObject({
      code: 0,
      stdout: 'outbox row 1 is pending, not failed: left as it is\nno outbox row 99\n0 failed mails are queued again\n',
    });
    const second = await serviceRun(env, (counts) => counts.sent === 1);
    expect(second.rows).toEqual([
      { id: 1, kind: 'sales', status: 'sent' },
      { id: 2, kind: 'newsletter_confirm', status: 'failed' },
    ]);
    expect(second.failedGauge).toContain('ingest_outbox_failed_rows{kind="sales"} 0');
    expect(second.failedGauge).toContain('ingest_outbox_failed_rows{kind="newsletter_confirm"} 1');
    expect(smtp.recipients).toEqual([['sales@example.com']]);
    expect(smtp.messages[0]).toMatch(/^Reply-To: .*<ana@example\.com>$/m);

    // A failed mail goes with the person it is about.
    const erased = await ingest(env, 'erase', '--email', 'nobody@example.com');
    expect(erased.stdout).toMatch(/^erased nobody@example\.com: newsletter 1, contacts 0, outbox 1,/);
    expect((await ingest(env, 'outbox', 'failed')).stdout).toBe('no failed mails\n');
  });

  it.each(BACKENDS)('queue each failed row once when two retries run at once (%s)', async (kind) => {
    const smtp = await peer();
    smtp.unknownRecipients = ['sales@example.com'];
    const env = { ...envFor(folder(), smtp), ...(await databaseEnv(kind)) };
    await serviceRun(env, (counts) => counts.failed === 3, async (app) => {
      for (const firstName of ['Ana', 'Bruno', 'Carla']) {
        expect((await postJson(app, '/api/contact', contact({ firstName, captcha: await solvedCaptcha(app) }))).statusCode).toBe(201);
      }
    });
    const config = configFor(env.DATA_DIR, env);
    const [one, two] = await Promise.all([openOpsDatabase(config), openOpsDatabase(config)]);
    later(async () => {
      await one.close();
      await two.close();
    });
    const results = await Promise.all([retryFailedOutbox(one, Date.now(), { all: true }), retryFailedOutbox(two, Date.now(), { kind: 'sales' })]);
    expect(results.flatMap((result) => result.retried).sort()).toEqual([1, 2, 3]);
    expect(await one.all(one.kysely.selectFrom('outbox').select('status').where('status', '=', 'pending'))).toHaveLength(3);
  });
});
