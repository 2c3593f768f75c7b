import { afterEach } from 'vitest';
import { type SmtpPeer, smtpPeer } from '../../helpers/smtp-peer.ts';
import { tempDir } from '../fixtures.ts';

/**
 * What the mail tests set up and tear down: `later(fn)` runs `fn` after the current test (last
 * registered first), `peer()` starts a real SMTP peer and `folder()` makes a temporary folder,
 * both removed after the test. Call it once at the top of a test file.
 */
export function mailScaffold() {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    while (cleanups.length > 0) await cleanups.pop()!();
  });
  const later = (cleanup: () => Promise<void> | void) => void cleanups.push(cleanup);
  return {
    later,
    async peer(): Promise<SmtpPeer> {
      const smtp = await smtpPeer();
      later(smtp.close);
      return smtp;
    },
    folder(): string {
      const temp = tempDir();
      later(temp.remove);
      return temp.dir;
    },
  };
}
