/**
 * The `ingest` command line (started by `ingest/bin.js`): `serve`, `migrate`, `export`, `erase`,
 * `webhooks`, `outbox`, `purge` and `preview-mail`. A thin adapter: it reads the configuration, calls one function per
 * command, and maps results and `OperatorError`s to output and exit codes (0 done, 1 failed, 2 bad
 * usage or configuration). Data goes to standard output, reports to standard error.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { Command, Option } from 'commander';
import type { IngestConfig } from './config.ts';
import { OPERATOR_ERRORS, OperatorError } from './operator-errors.ts';
import { EXPORT_FORMATS, EXPORT_TABLES, type ExportRequest } from './ops/export-rows.ts';
import type { OpsDatabase } from './store/ops-database.ts';
import { addOutboxCommands } from './mail/outbox-commands.ts';
import { addWebhookCommands } from './webhooks/webhook-commands.ts';

// Each command imports what it runs when it runs (`await import(…)` below), so `ingest --help`
// or `ingest export` on SQLite never loads Fastify, the PostgreSQL driver or the mailer: a
// bundle's chunk is read only when its command needs it (docs/developers.md, "Compiled programs").

async function configOrExit(): Promise<IngestConfig> {
  const { resolveConfig } = await import('./config.ts');
  const result = resolveConfig(process.env, process.cwd());
  if (result.ok) return result.config;
  for (const line of result.errors) process.stderr.write(`ingest: ${line}\n`);
  process.stderr.write(`ingest: ${OPERATOR_ERRORS.config_invalid.message}\n`);
  process.exit(OPERATOR_ERRORS.config_invalid.exit);
}

/** The migrated database for an operator command (SQLite or PostgreSQL, as configured). */
async function openOpsDatabase(config: IngestConfig): Promise<OpsDatabase> {
  const { openOpsDatabase: open } = await import('./store/open-backend.ts');
  return open(config);
}

function report(line: string): void {
  process.stderr.write(`${line}\n`);
}

const program = new Command('ingest')
  .description('The form-ingest service: stores newsletter signups and contact messages, and mails sales.')
  .showHelpAfterError();

program
  .command('serve')
  .description('Apply migrations, then serve the API on $HOST:$PORT until SIGTERM/SIGINT.')
  .action(async () => {
    process.umask(0o077); // every file the service creates (database, -wal, -shm, .eml mail) is owner-only
    const { serve } = await import('./server.ts');
    await serve(await configOrExit());
  });

program
  .command('migrate')
  .description('Apply pending database migrations and print the schema version.')
  .action(async () => {
    const config = await configOrExit();
    const { MIGRATIONS } = await import('./store/migrations.ts');
    const db = await openOpsDatabase(config);
    await db.close();
    const where = config.database.kind === 'sqlite' ? config.database.path : 'PostgreSQL';
    report(`database ${where} is at migration ${Object.keys(MIGRATIONS).at(-1)}`);
  });

program
  .command('export')
  .description('Write a table as CSV or JSON Lines (--table), or everything held about one person as JSON (--email), to standard output or --output FILE.')
  .addOption(new Option('--table <table>', 'which table').choices(EXPORT_TABLES).conflicts('email'))
  .option('--email <address>', 'one person (one address, in any case): subscription with consent receipt, consent events, contacts, outbox rows, mail files')
  .addOption(new Option('--format <format>', 'file format (with --table)').choices(EXPORT_FORMATS).default('csv'))
  .option('--since <date>', 'only rows created at or after this date (ISO 8601, e.g. 2025-01-31; with --table)')
  .option('--output <file>', 'write to this new file (mode 0600) instead of standard output')
  .option('--force', 'with --output: replace the file if it exists')
  .action(async (options: { table?: ExportRequest['table']; email?: string; format: ExportRequest['format']; since?: string; output?: string; force?: boolean }) => {
    if (options.table === undefined && options.email === undefined) throw new OperatorError('option_invalid', 'export needs --table TABLE or --email ADDRESS');
    const { personAddress } = await import('./ops/person-address.ts');
    const email = options.email === undefined ? undefined : personAddress(options.email);
    if (options.force && options.output === undefined) throw new OperatorError('option_invalid', '--force goes with --output FILE');
    // Checked again when the file is created; this only saves reading the database for nothing.
    if (options.output !== undefined && !options.force && existsSync(options.output)) {
      throw new OperatorError('option_invalid', `--output ${JSON.stringify(options.output)} exists already; name a new file, or add --force to replace it`);
    }
    const since = options.since === undefined ? undefined : Date.parse(options.since);
    if (since !== undefined && Number.isNaN(since)) {
      throw new OperatorError('option_invalid', `--since ${JSON.stringify(options.since)} is not a date such as 2025-01-31`);
    }
    const config = await configOrExit();
    const [{ exportPerson }, { exportTable }, { mailFolderOf }, { writeOwnerOnlyFile }] = await Promise.all([
      import('./ops/export-person.ts'),
      import('./ops/export-rows.ts'),
      import('./ops/erase-mail-files.ts'),
      import('./ops/owner-only-file.ts'),
    ]);
    const db = await openOpsDatabase(config);
    try {
      let text: string;
      let summary: string;
      if (email !== undefined) {
        const person = await exportPerson(db, email, mailFolderOf(config), Date.now());
        text = `${JSON.stringify(person, null, 2)}\n`;
        summary = `exported ${person.newsletter.length} subscription(s), ${person.consentEvents.length} consent event(s), ${person.contacts.length} contact(s), ${person.outbox.length} outbox row(s), ${person.mailFiles.length} mail file(s)`;
      } else {
        const result = await exportTable(db, { table: options.table!, format: options.format, ...(since === undefined ? {} : { since }) });
        text = result.text;
        summary = `exported ${result.rows} ${options.table} row(s) as ${options.format}`;
        if (result.leftOut.rows > 0) summary += `; left out ${result.leftOut.rows} ${result.leftOut.reason}`;
      }
      if (options.output === undefined) {
        process.stdout.write(text);
      } else {
        const written = writeOwnerOnlyFile(options.output, text, { replace: options.force === true });
        if (!written.ok) throw new OperatorError('option_invalid', written.problem);
      }
      report(summary);
    } finally {
      await db.close();
    }
  });

program
  .command('erase')
  .description('Erase one email address (GDPR) from every table, the outbox and the mail files, and print what was removed.')
  .requiredOption('--email <address>', 'the one address to erase, in any case')
  .action(async (options: { email: string }) => {
    const { personAddress } = await import('./ops/person-address.ts');
    const email = personAddress(options.email);
    const config = await configOrExit();
    const [{ erasePerson }, { mailFolderOf }] = await Promise.all([import('./ops/erase.ts'), import('./ops/erase-mail-files.ts')]);
    const db = await openOpsDatabase(config);
    try {
      const hooks = { endpoints: config.webhooks.endpoints, inFlightMs: config.webhooks.timeoutMs };
      const { rows: removed, webhooks, leftover, mailFiles } = await erasePerson(db, email, mailFolderOf(config), hooks);
      process.stdout.write(`erased ${email}: newsletter ${removed.newsletter}, contacts ${removed.contacts}, outbox ${removed.outbox}, webhook records ${webhooks.removed}\n`);
      report(`removed ${mailFiles.length} mail file(s) about the address${mailFiles.map((name) => `\n  ${name}`).join('')}`);
      if (webhooks.notices.length > 0) {
        const { sendErasureNotices } = await import('./webhooks/erasure-notices.ts');
        for (const notice of await sendErasureNotices(db, config, webhooks.notices)) process.stdout.write(`erasure passed on to ${notice.endpoint}: ${notice.detail}\n`);
        // A delivered notice dropped the address: its old row versions go the way of the others.
        const left = await db.scrubDeleted();
        if (left !== null) report(`warning: ${left}`);
      }
      for (const notice of webhooks.notices.filter((told) => told.withoutRecord)) {
        report(`note: ${notice.endpoint} takes newsletter.confirmed and the address had a confirmed subscription, but no record says it was sent it (records before 2026-12 were purged after 730 days): told anyway`);
      }
      for (const endpoint of webhooks.unconfigured) report(`warning: webhook endpoint ${endpoint} received data about the address but is no longer configured: ask its owner to erase it`);
      if (leftover !== null) report(`warning: ${leftover}`);
    } finally {
      await db.close();
    }
  });

addWebhookCommands(program, { config: configOrExit, open: openOpsDatabase, out: (line) => process.stdout.write(`${line}\n`) });
addOutboxCommands(program, { config: configOrExit, open: openOpsDatabase, out: (line) => process.stdout.write(`${line}\n`) });

program
  .command('purge')
  .description('Apply the retention table now (the service does it daily): delete what is kept no longer; --dry-run only counts.')
  .option('--dry-run', 'print what would be deleted, delete nothing')
  .action(async (options: { dryRun?: boolean }) => {
    const config = await configOrExit();
    const [{ applyRetention, retentionTable }, { mailFolderOf }] = await Promise.all([import('./ops/retention.ts'), import('./ops/erase-mail-files.ts')]);
    const db = await openOpsDatabase(config);
    try {
      const removed = await applyRetention(db, {
        now: Date.now(),
        linkDays: config.confirmLinkDays,
        mailDir: mailFolderOf(config),
        ...(options.dryRun ? { dryRun: true } : {}),
      });
      const verb = options.dryRun ? 'would delete' : 'deleted';
      for (const rule of retentionTable(config.confirmLinkDays)) {
        process.stdout.write(`${verb} ${String(removed[rule.id]).padStart(6)}  ${rule.what} (kept ${rule.kept})\n`);
      }
      process.stdout.write('kept: confirmed newsletter subscriptions (until unsubscribe or erase; never by age)\n');
    } finally {
      await db.close();
    }
  });

program
  .command('preview-mail')
  .description('Write every kind of email the service sends (the sales email for each reason, the confirmation mails, "already subscribed"), in every language, as .eml and .html files to open in a mail client or browser.')
  .requiredOption('--out <dir>', 'the folder to write them into (created if missing)')
  .action(async (options: { out: string }) => {
    const config = await configOrExit();
    const { writeMailPreviews } = await import('./mail/messages/preview-mail.ts');
    const { loadSiteContent } = await import('./site-content.ts');
    const files = await writeMailPreviews(resolve(options.out), {
      from: config.mailFrom,
      to: config.salesEmail,
      timeZone: config.salesTimeZone,
      content: loadSiteContent(config.contentDir),
      siteUrl: config.siteUrl,
      apiUrl: config.publicApiUrl,
      linkDays: config.confirmLinkDays,
    });
    process.stdout.write(files.map((file) => `${file}\n`).join(''));
    report(`wrote ${files.length / 2} sample email(s), times in ${config.salesTimeZone}`);
  });

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (!(error instanceof OperatorError)) throw error;
  process.stderr.write(`ingest: ${error.detail}\ningest: ${OPERATOR_ERRORS[error.code].message}\n`);
  process.exit(OPERATOR_ERRORS[error.code].exit);
}
