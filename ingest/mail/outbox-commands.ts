/**
 * The operator's outbox commands, the mail's counterpart of `ingest webhooks failed | retry`:
 *
 *   ingest outbox failed                          the failed mails: what, about which row, why
 *   ingest outbox retry --all | --kind K | --id N…   queues them again (the service sends them)
 *
 * A mail fails for good when the relay refuses its recipient or its content, or after 48 h of
 * retries; once the cause is fixed (`SALES_EMAIL`, the relay's quota, its credentials) a retry
 * sends it under its first Message-ID.
 */
import { type Command, Option } from 'commander';
import type { IngestConfig } from '../config.ts';
import { OperatorError } from '../operator-errors.ts';
import type { OpsDatabase } from '../store/ops-database.ts';
import type { OutboxKind } from '../store/tables.ts';

// What the commands run is imported when they run, as in `main.ts`: `ingest --help` loads none of it.

/** What the commands need from the command line's set-up (the webhook commands' shape). */
export interface OutboxCommandHelpers {
  config(): Promise<IngestConfig>;
  open(config: IngestConfig): Promise<OpsDatabase>;
  out(line: string): void;
}

/** Each kind of mail, as `--kind` takes it. */
const KINDS: Readonly<Record<OutboxKind, true>> = { sales: true, contact_confirm: true, newsletter_confirm: true, newsletter_already_subscribed: true };

/** Adds `outbox failed | retry` to `program`. */
export function addOutboxCommands(program: Command, helpers: OutboxCommandHelpers): void {
  const outbox = program.command('outbox').description('Outbox mails: list the failed ones, or queue them again.');
  const withDb = async <T>(work: (db: OpsDatabase) => Promise<T>): Promise<T> => {
    const db = await helpers.open(await helpers.config());
    try {
      return await work(db);
    } finally {
      await db.close();
    }
  };

  outbox
    .command('failed')
    .description('List the mails that failed for good (the relay refused the recipient or the content, or 48 h of retries ran out), oldest first.')
    .action(async () => {
      const [{ failedOutboxRows }, { textTable }] = await Promise.all([import('../store/outbox/failed-rows.ts'), import('../ops/text-table.ts')]);
      const rows = await withDb(failedOutboxRows);
      const header = ['id', 'kind', 'about', 'attempts', 'queued at', 'last try', 'why'];
      const cells = rows.map((row) => [String(row.id), row.kind, row.about, String(row.attempts), row.queuedAt, row.lastTryAt ?? '-', row.lastError ?? '']);
      helpers.out(rows.length === 0 ? 'no failed mails' : textTable(header, cells));
    });

  outbox
    .command('retry')
    .description('Queue failed mails again, due at once with a fresh 48 h of retries; the service sends them within a second.')
    .option('--all', 'every failed mail')
    .addOption(new Option('--kind <kind>', 'every failed mail of this kind').choices(Object.keys(KINDS)))
    .option('--id <ids...>', 'the mails with these outbox ids (from `outbox failed`)')
    .action(async (options: { all?: boolean; kind?: OutboxKind; id?: string[] }) => {
      if ([options.all === true, options.kind !== undefined, options.id !== undefined].filter(Boolean).length !== 1) {
        throw new OperatorError('option_invalid', 'retry needs one of --all, --kind KIND or --id N…');
      }
      const ids = options.id?.map((id) => {
        if (!/^\d{1,15}$/.test(id)) throw new OperatorError('option_invalid', `--id ${JSON.stringify(id)} is not an outbox id (a whole number from \`outbox failed\`)`);
        return Number(id);
      });
      const { retryFailedOutbox } = await import('../store/outbox/failed-rows.ts');
      const which = ids !== undefined ? { ids: [...new Set(ids)] } : options.kind !== undefined ? { kind: options.kind } : { all: true as const };
      const result = await withDb((db) => retryFailedOutbox(db, Date.now(), which));
      for (const { id, status } of result.notFailed) helpers.out(status === null ? `no outbox row ${id}` : `outbox row ${id} is ${status}, not failed: left as it is`);
      const n = result.retried.length;
      helpers.out(`${n} failed mail${n === 1 ? ' is' : 's are'} queued again${n === 0 ? '' : ` (${result.retried.join(', ')})`}`);
    });
}
