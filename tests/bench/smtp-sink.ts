/**
 * An SMTP server on 127.0.0.1 that accepts every message and keeps none, for `bench:ingest`: the
 * services under load send their confirmation mails over SMTP, as in production, instead of
 * writing `.eml` files (whose synchronous write and fsync would stall their event loop).
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A listening sink: its `smtp://` URL, how many messages it took, and `close`. */
export interface SmtpSink {
  url: string;
  received(): number;
  close(): Promise<void>;
}

/** Starts the sink on a free port. */
export async function smtpSink(): Promise<SmtpSink> {
  let received = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      stream.on('end', () => {
        received += 1;
        callback();
      });
      stream.resume();
    },
  });
  // A sender killed mid-session (the benchmarks stop services with SIGKILL while mails are on
  // their way) resets its connection: smtp-server reports that as an 'error' event, which would
  // end the benchmark's process if nothing listened. The message it was sending is simply lost.
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    received: () => received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
