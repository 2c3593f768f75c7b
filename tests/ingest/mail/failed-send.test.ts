/**
 * What a failed send leaves behind, against a real SMTP peer and a real SQLite file: a server that
 * quotes the recipient in its rejection (as Postfix does) must not put a visitor's address into the
 * service's log or into `outbox.last_error`.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { manualClock } from '../../../ingest/clock.ts';
import { messageOf } from '../../../ingest/jobs/error-reason.ts';
import { smtpMailer } from '../../../ingest/mail/mailer.ts';
import { outboxWorker } from '../../../ingest/mail/outbox-worker.ts';
import { DEFAULT_RETRY_POLICY } from '../../../ingest/mail/retry-policy.ts';
import { sqliteOutbox } from '../../../ingest/store/sqlite/sqlite-outbox-store.ts';
import { openSubmissionStore } from '../../../ingest/store/sqlite/sqlite-submission-store.ts';
import { mailScaffold } from './scaffold.ts';
import { migratedDb, rowsInFile, SITE_CONTENT } from '../fixtures.ts';

const { later, peer, folder } = mailScaffold();
const T0 = Date.parse('2025-06-01T00:00:00Z');

describe('a failed send', () => {
  it('regression: a 550 reply quoting the recipient leaves no address in the log or in outbox.last_error', async () => {
    const smtp = await peer();
    smtp.rejectRecipients = true;
    const dir = folder();
    const db = await migratedDb(dir);
    later(() => db.close());
    const store = await openSubmissionStore(db, {});
    const fields = { firstName: 'Ana', lastName: 'Pérez', email: 'ana.perez@example.com', phone: null, companyName: null, country: 'es', message: 'Hola', captcha: { token: 'unused', answer: 0 }, lang: 'es' as const };
    await store.submitContact(fields, { value: 'nonce-redaction-000000001', expiresAt: T0 + 60_000 }, T0);
    await store.close();

    const logged: unknown[] = [];
    const log = (data: unknown, message?: string) => void logged.push({ data, message });
    const worker = outboxWorker({
      outbox: sqliteOutbox(db),
      mailer: smtpMailer(`${smtp.url}?ignoreTLS=true`),
      // The sales mailbox is the recipient the peer rejects, and the visitor is in Reply-To.
      envelope: { from: 'forms@example.com', to: 'sales.team@example.com', content: SITE_CONTENT },
      clock: manualClock(T0),
      policy: DEFAULT_RETRY_POLICY,
      random: () => 0.5,
      log: { info: log, warn: log, error: log },
    });
    expect(await worker.runPass()).toMatchObject({ failed: 1 });

    const [row] = rowsInFile<{ last_error: string }>(join(dir, 'ingest.sqlite'), 'SELECT last_error FROM outbox');
    // The reason is kept, so an operator still reads why the mail failed.
    expect(row!.last_error).toMatch(/550|Recipient address rejected/);
    expect(row!.last_error).toContain('<address>');
    for (const text of [row!.last_error, JSON.stringify(logged)]) {
      expect(text).not.toMatch(/sales\.team@example\.com|ana\.perez@example\.com|@example\.com/);
    }
  });

  it('replaces every address in a reason, with or without angle brackets and in any script', () => {
    expect(messageOf(new Error('550 5.1.1 <ana.perez@example.com>: Recipient address rejected'))).toBe('550 5.1.1 <address>: Recipient address rejected');
    expect(messageOf('user josé.garcía@correo.es and zoë+news@mail.example.co.uk unknown')).toBe('user <address> and <address> unknown');
    expect(messageOf(new Error('connect ECONNREFUSED 127.0.0.1:2525'))).toBe('connect ECONNREFUSED 127.0.0.1:2525');
  });
});
