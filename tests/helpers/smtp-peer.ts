/**
 * A real SMTP server on 127.0.0.1 (or another address of this machine) in this process, the peer
 * the service sends its sales emails to in the ingest tests and in the browser tests' stack. It
 * never offers STARTTLS; with `auth` it takes AUTH PLAIN/LOGIN in clear text, as a relay (or a
 * machine in the middle) that stripped STARTTLS would, and records every login it was sent.
 */
import type { AddressInfo, Socket } from 'node:net';
import { SMTPServer } from 'smtp-server';

/**
 * A running peer: what it accepted so far; set `refusing` to answer 451 (try later) instead, or
 * `answer` to reject with any code (550: permanent) or to take the message and never reply.
 */
export interface SmtpPeer {
  port: number;
  /** `smtp://127.0.0.1:PORT` (the host it listens on), the service's `SMTP_URL`. */
  url: string;
  /** Each accepted message, raw, as UTF-8 text. */
  messages: string[];
  /** The SMTP envelope recipients of each accepted message. */
  recipients: string[][];
  /** When each accepted message was accepted (`Date.now()`). */
  acceptedAt: number[];
  refused: number;
  refusing: boolean;
  /** How DATA is answered when not `refusing`: accepted, an SMTP error code, or `'never'` (a hung server). */
  answer: 'accept' | number | 'never';
  /**
   * Set: RCPT TO is refused with 550 and a reply that quotes the address, as Postfix does
   * (`550 5.1.1 <ana@example.com>: Recipient address rejected: User unknown`).
   */
  rejectRecipients: boolean;
  /** RCPT TO is refused with 550 for these addresses only (an unknown user), as with `rejectRecipients`. */
  unknownRecipients: string[];
  /** Set: MAIL FROM is refused with this answer, e.g. `{ code: 550, text: '5.4.5 Daily user sending limit exceeded' }` (Gmail's quota). */
  mailFromAnswer: { code: number; text: string } | null;
  /** With `auth`: every `user:password` a client sent with AUTH (in clear text: the peer has no TLS). */
  logins: string[];
  /** With `auth`: AUTH is refused (535) while set. */
  refusingLogins: boolean;
  /** Every message that reached the end of DATA, raw, whatever the answer. */
  received: string[];
  /** How many TCP connections clients opened so far (a pooled sender reuses one for many messages). */
  connections: number;
  /** Stops listening and cuts every open connection: the server is down (connections refused). */
  down: () => Promise<void>;
  /** Listens again on the same port. */
  up: () => Promise<void>;
  close: () => Promise<void>;
}

/**
 * Starts a peer on a free loopback port, without TLS or authentication; `onMessage` also sees each
 * accepted message.
 *
 * @example const smtp = await smtpPeer({ onMessage: (raw) => writeFileSync(join(dir, '1.eml'), raw) });
 */
export async function smtpPeer(
  options: { onMessage?: (raw: Buffer, recipients: string[]) => void; host?: string; auth?: boolean } = {},
): Promise<SmtpPeer> {
  const host = options.host ?? '127.0.0.1';
  const peer: SmtpPeer = {
    port: 0,
    url: '',
    messages: [],
    recipients: [],
    acceptedAt: [],
    refused: 0,
    refusing: false,
    answer: 'accept',
    rejectRecipients: false,
    unknownRecipients: [],
    mailFromAnswer: null,
    logins: [],
    refusingLogins: false,
    received: [],
    connections: 0,
    down: async () => {},
    up: async () => {},
    close: async () => {},
  };
  const sockets = new Set<Socket>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: options.auth === true,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    onAuth(auth, _session, callback) {
      peer.logins.push(`${auth.username}:${auth.password}`);
      if (peer.refusingLogins) return callback(Object.assign(new Error('5.7.8 Authentication credentials invalid'), { responseCode: 535 }));
      callback(null, { user: auth.username });
    },
    onMailFrom(_address, _session, callback) {
      const answer = peer.mailFromAnswer;
      if (answer === null) return callback();
      peer.refused += 1;
      callback(Object.assign(new Error(answer.text), { responseCode: answer.code }));
    },
    onRcptTo(address, _session, callback) {
      if (!peer.rejectRecipients && !peer.unknownRecipients.includes(address.address)) return callback();
      callback(Object.assign(new Error(`5.1.1 <${address.address}>: Recipient address rejected: User unknown in local recipient table`), { responseCode: 550 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        peer.received.push(raw.toString('utf8'));
        const answer = peer.refusing ? 451 : peer.answer;
        if (answer === 'never') return;
        if (typeof answer === 'number') {
          peer.refused += 1;
          callback(Object.assign(new Error(answer >= 500 ? 'mailbox unavailable' : 'mailbox busy, try later'), { responseCode: answer }));
          return;
        }
        const recipients = session.envelope.rcptTo.map((recipient) => recipient.address);
        peer.messages.push(raw.toString('utf8'));
        peer.recipients.push(recipients);
        peer.acceptedAt.push(Date.now());
        options.onMessage?.(raw, recipients);
        callback();
      });
    },
  });
  // A client that vanishes mid-session (a replica killed with SIGKILL) resets its connection;
  // smtp-server reports that as an 'error', which must not end the test process.
  server.on('error', () => {});
  server.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    peer.connections += 1;
    socket.on('close', () => sockets.delete(socket));
  });
  const listen = (port: number) => new Promise<void>((resolve) => server.server.listen(port, host, () => resolve()));
  await new Promise<void>((resolve) => server.listen(0, host, () => resolve()));
  peer.port = (server.server.address() as AddressInfo).port;
  peer.url = `smtp://${host.includes(':') ? `[${host}]` : host}:${peer.port}`;
  peer.down = async () => {
    const closed = new Promise<void>((resolve) => server.server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  peer.up = () => listen(peer.port);
  // The test is over: open connections (a sender's pool keeps one) are cut, not waited for.
  peer.close = async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  return peer;
}
