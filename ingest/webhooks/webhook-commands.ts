/**
 * The operator's webhook commands, and the sending of an erasure's notices:
 *
 *   ingest webhooks failed                   the dead letters: what failed, where, why
 *   ingest webhooks retry --all | --id N…    makes them due again (the service sends them), skipping superseded ones
 *   ingest webhooks test --endpoint NAME     sends a signed `ping` and prints the answer
 *
 * `ingest erase` sends the erasure's notices itself (`erasure-notices.ts`). Everything printed that
 * came from outside (a receiver's error, an endpoint's name or URL) goes through `printable`, so
 * no escape sequence reaches the operator's terminal.
 */
import type { Command } from 'commander';
import type { IngestConfig } from '../config.ts';
import { DATA_FACTS } from '../contract/data-facts.ts';
import { OperatorError } from '../operator-errors.ts';
import { printable } from './printable-text.ts';
import type { OpsDatabase } from '../store/ops-database.ts';
import type { WebhookRowView, WebhookStore } from '../store/webhooks/webhook-store.ts';

// What the commands run is imported when they run, as in `main.ts`: `ingest --help` loads none of it.

/** What the commands need from the command line's set-up. */
export interface WebhookCommandHelpers {
  config(): Promise<IngestConfig>;
  open(config: IngestConfig): Promise<OpsDatabase>;
  out(line: string): void;
}

/** Adds `webhooks failed | retry | test` to `program`. */
export function addWebhookCommands(program: Command, helpers: WebhookCommandHelpers): void {
  const webhooks = program.command('webhooks').description('Webhook deliveries: list the failed ones, send them again, or test an endpoint.');
  const withStore = async <T>(work: (store: WebhookStore) => Promise<T>): Promise<T> => {
    const config = await helpers.config();
    const { webhookStore } = await import('../store/webhooks/webhook-store.ts');
    const db = await helpers.open(config);
    try {
      return await work(webhookStore(db));
    } finally {
      await db.close();
    }
  };

  webhooks
    .command('failed')
    .description(`List the deliveries set aside as failed (refused by the receiver, or still failing after ${DATA_FACTS.webhookRetryDays} days); each keeps its content ${DATA_FACTS.webhookFailedDays} days.`)
    .action(async () => {
      const rows = await withStore((store) => store.list({ status: 'failed' }));
      helpers.out(rows.length === 0 ? 'no failed webhook deliveries' : formatRows(rows));
    });

  webhooks
    .command('retry')
    .description(
      'Make failed deliveries due again, with a fresh retry budget; the service sends them within a second. A delivery superseded by a newer state of the same person at its endpoint is skipped.',
    )
    .option('--all', 'every failed delivery')
    .option('--id <ids...>', 'the deliveries with these ids (from `webhooks failed`)')
    .action(async (options: { all?: boolean; id?: string[] }) => {
      if ((options.all === true) === (options.id !== undefined)) throw new OperatorError('option_invalid', 'retry needs --all or --id N… (one of them)');
      const ids = options.id?.map((id) => {
        if (!/^\d{1,15}$/.test(id)) throw new OperatorError('option_invalid', `--id ${JSON.stringify(id)} is not a delivery id (a whole number from \`webhooks failed\`)`);
        return Number(id);
      });
      const report = await withStore((store) => store.retryFailed(Date.now(), ids));
      const due = report.due.length;
      helpers.out(`${due} failed webhook deliver${due === 1 ? 'y is' : 'ies are'} due again`);
      if (report.resequenced.length > 0) {
        helpers.out(`sent after newer events about the same person, with a new sequence: ${report.resequenced.join(', ')}`);
      }
      if (report.superseded.length > 0) {
        helpers.out(`skipped as superseded (a newer state of the same person is on its way to, or reached, that endpoint): ${report.superseded.join(', ')}`);
      }
    });

  webhooks
    .command('test')
    .description('Send a signed ping event to one endpoint and print its answer.')
    .requiredOption('--endpoint <name>', 'the endpoint (`default` for WEBHOOK_URL)')
    .action(async (options: { endpoint: string }) => {
      const config = await helpers.config();
      const endpoint = config.webhooks.endpoints.find((candidate) => candidate.name === options.endpoint);
      if (endpoint === undefined) {
        const names = config.webhooks.endpoints.map((candidate) => candidate.name).join(', ') || 'none: set WEBHOOK_URL or WEBHOOKS_FILE';
        throw new OperatorError('option_invalid', `--endpoint ${JSON.stringify(options.endpoint)} is not configured (configured: ${names})`);
      }
      const [{ deliver }, { webhookBodyText }, { newEventId }] = await Promise.all([
        import('./deliver.ts'),
        import('../contract/webhook-events.ts'),
        import('../store/webhooks/webhook-row.ts'),
      ]);
      const now = Date.now();
      const eventId = newEventId();
      const body = webhookBodyText({ type: 'ping', data: { version: 1, endpoint: endpoint.name } }, new Date(now).toISOString());
      const started = performance.now();
      const result = await deliver(endpoint, eventId, body, { timeoutMs: config.webhooks.timeoutMs, allowPrivate: config.webhooks.allowPrivate, now });
      const ms = Math.round(performance.now() - started);
      if (result.ok) {
        helpers.out(`${printable(endpoint.name)}: HTTP ${result.status} in ${ms} ms (webhook-id ${eventId})`);
        return;
      }
      throw new OperatorError('webhook_test_failed', printable(`${endpoint.name} (${endpoint.url}): ${result.error} after ${ms} ms`, 500));
    });
}

// A fixed-width table of the rows, one line each.
function formatRows(rows: readonly WebhookRowView[]): string {
  const header = ['id', 'endpoint', 'event', 'attempts', 'failed at', 'status', 'webhook-id', 'why'];
  const lines = rows.map((row) =>
    [String(row.id), row.endpoint, row.eventType, String(row.attempts), row.finishedAt ?? '', row.lastStatus === null ? '-' : String(row.lastStatus), row.eventId, row.lastError ?? ''].map(
      (cell) => printable(cell),
    ),
  );
  const widths = header.map((title, i) => Math.max(title.length, ...lines.slice().map((line) => (i === header.length - 1 ? 0 : line[i]!.length))));
  const pad = (cells: string[]) => cells.map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ');
  return [pad(header), ...lines.map(pad)].join('\n');
}
