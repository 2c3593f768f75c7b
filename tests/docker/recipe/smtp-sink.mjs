// The mail server of the container proof's recipe run (proof.yaml's mail-sink service, on the
// stand-in node image): plain SMTP on port 2525 that accepts every message, without TLS or
// authentication, and writes each to /tmp/mail/N.eml, where the proof reads the confirmation link.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';

const DIR = '/tmp/mail';
mkdirSync(DIR, { recursive: true });
let count = 0;

createServer((socket) => {
  // latin1 keeps every byte as one character, so a message is written back exactly as received.
  socket.setEncoding('latin1');
  const reply = (text) => socket.write(`${text}\r\n`);
  let pending = '';
  let data = null;
  reply('220 mail-sink ESMTP');
  socket.on('data', (chunk) => {
    pending += chunk;
    for (let end = pending.indexOf('\r\n'); end !== -1; end = pending.indexOf('\r\n')) {
      const line = pending.slice(0, end);
      pending = pending.slice(end + 2);
      if (data !== null) {
        if (line !== '.') {
          data.push(line.startsWith('.') ? line.slice(1) : line);
          continue;
        }
        count += 1;
        writeFileSync(`${DIR}/.${count}.part`, `${data.join('\r\n')}\r\n`, 'latin1');
        renameSync(`${DIR}/.${count}.part`, `${DIR}/${count}.eml`);
        data = null;
        reply(`250 2.0.0 queued as ${count}`);
        continue;
      }
      const verb = line.slice(0, 4).toUpperCase();
      if (verb === 'EHLO') reply('250-mail-sink\r\n250-8BITMIME\r\n250 SMTPUTF8');
      else if (verb === 'HELO') reply('250 mail-sink');
      else if (verb === 'DATA') {
        data = [];
        reply('354 end with <CRLF>.<CRLF>');
      } else if (verb === 'QUIT') {
        reply('221 bye');
        socket.end();
      } else reply('250 OK');
    }
  });
  socket.on('error', () => socket.destroy());
}).listen(2525, '0.0.0.0', () => console.log('mail-sink listening on 2525'));

// PID 1 in its container: without a handler, `docker stop` would wait its whole timeout to kill it.
process.on('SIGTERM', () => process.exit(0));
