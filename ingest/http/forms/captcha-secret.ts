/**
 * The captcha's HMAC key: `CAPTCHA_SECRET` when set, otherwise a random key generated on first
 * start and kept in `$DATA_DIR/captcha-secret` (mode 0600), so a restart does not invalidate the
 * challenges visitors are answering. Replicas must share one `CAPTCHA_SECRET`.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** Returns the configured secret, or reads the kept one, or creates and keeps a new one. */
export function loadCaptchaSecret(configured: string | null, file: string): string {
  if (configured !== null) return configured;
  const existing = readIfPresent(file);
  if (existing !== null && existing.length >= 32) return existing;
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const secret = randomBytes(32).toString('hex');
  try {
    // 'wx' fails if another process created it meanwhile; then that one's secret wins.
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: existing === null ? 'wx' : 'w' });
    return secret;
  } catch (error) {
    const raced = readIfPresent(file);
    if (raced !== null && raced.length >= 32) return raced;
    throw error;
  }
}

function readIfPresent(file: string): string | null {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
