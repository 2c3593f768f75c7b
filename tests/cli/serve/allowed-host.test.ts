import { describe, expect, it } from 'vitest';
import { isAllowedHost } from '../../../cli/serve/allowed-host.ts';

describe('isAllowedHost', () => {
  it('allows localhost, IP addresses and the HOST the server listens on, with any port', () => {
    for (const [host, listen] of [
      ['localhost:4321', '127.0.0.1'],
      ['localhost.:4321', '127.0.0.1'],
      ['127.0.0.1:4321', '127.0.0.1'],
      ['[::1]:4321', '127.0.0.1'],
      ['192.168.1.20:4321', '0.0.0.0'],
      ['DevBox.lan:4321', 'devbox.lan'],
    ]) expect(isAllowedHost(host, listen!), host).toBe(true);
  });

  it('refuses any other name, a user part, a path or no Host at all', () => {
    for (const host of ['evil.example:4321', 'localhost.evil.example', 'www.example.com@evil.example', 'localhost/x', '127.0.0.1:port', '[evil]:4321', '', undefined]) {
      expect(isAllowedHost(host, '127.0.0.1'), String(host)).toBe(false);
    }
  });
});
