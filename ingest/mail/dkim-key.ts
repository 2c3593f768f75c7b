/**
 * The DKIM signing key, read once at start-up from `DKIM_PRIVATE_KEY_FILE` and checked before the
 * service listens: a file that cannot be read, or holds no RSA private key, stops start-up with one
 * line that names the file and what is wrong, never any of its content.
 *
 *   readDkimKey({ domain: 'example.com', selector: 'mail', keyFile: '/run/secrets/dkim.pem' })
 *   → { domain: 'example.com', selector: 'mail', privateKey: '-----BEGIN PRIVATE KEY-----…' }
 */
import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { DkimConfig } from '../config.ts';
import { OperatorError } from '../operator-errors.ts';

/** What the mailer signs with: the domain (`d=`), the selector (`s=`) and the PEM key. */
export interface DkimSigning {
  domain: string;
  selector: string;
  privateKey: string;
}

// Receivers ignore RSA keys under 1024 bits (RFC 8301); 2048 is what the operators' guide generates.
const MIN_RSA_BITS = 1024;

/** Reads and checks the key of `dkim`; throws `OperatorError('dkim_key_invalid')` with a one-line reason. */
export function readDkimKey(dkim: DkimConfig): DkimSigning {
  const fail = (why: string) => new OperatorError('dkim_key_invalid', `DKIM_PRIVATE_KEY_FILE ${dkim.keyFile} ${why}`);
  let pem: string;
  try {
    pem = readFileSync(dkim.keyFile, 'utf8');
  } catch (error) {
    throw fail(`cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let key: ReturnType<typeof createPrivateKey>;
  try {
    key = createPrivateKey(pem);
  } catch {
    // Node's message can quote the file's bytes; the line says only what was expected.
    throw fail('holds no private key in PEM form (-----BEGIN PRIVATE KEY----- or -----BEGIN RSA PRIVATE KEY-----)');
  }
  if (key.asymmetricKeyType !== 'rsa') throw fail(`holds a key of type ${key.asymmetricKeyType ?? 'unknown'}; DKIM signing here needs an RSA key`);
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < MIN_RSA_BITS) throw fail(`holds a ${bits}-bit RSA key; receivers ignore keys under ${MIN_RSA_BITS} bits (use 2048)`);
  return { domain: dkim.domain, selector: dkim.selector, privateKey: pem };
}
