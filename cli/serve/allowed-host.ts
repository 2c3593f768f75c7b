import { isIP } from 'node:net';

/**
 * Whether a request's `Host` header names this machine's server rather than some other site:
 * `localhost`, an IP address (`127.0.0.1`, `[::1]`, a LAN address when the server listens on all
 * of them), or the host the server was told to listen on (`HOST`), with any port. A web page
 * whose own name an attacker points at 127.0.0.1 (DNS rebinding) makes the browser send that name,
 * `Host: evil.example:4321`, and is refused: the page can no longer read the dev server's answers
 * (pages, sources in the overlay) nor post to the forms through it. An IP address is allowed
 * because rebinding needs a name the attacker controls; a page at an address is its own origin.
 * The same rule as Vite's `server.allowedHosts` and webpack-dev-server's `allowedHosts: 'auto'`.
 *
 * @example isAllowedHost('localhost:4321', '127.0.0.1')        // true
 * @example isAllowedHost('[::1]:4321', '127.0.0.1')             // true
 * @example isAllowedHost('devbox.lan:4321', 'devbox.lan')       // true
 * @example isAllowedHost('evil.example:4321', '127.0.0.1')      // false
 * @example isAllowedHost(undefined, '127.0.0.1')                // false
 */
export function isAllowedHost(hostHeader: string | undefined, listenHost: string): boolean {
  const name = hostName(hostHeader ?? '');
  if (name === null) return false;
  if (name === 'localhost' || name === listenHost.toLowerCase()) return true;
  return name.startsWith('[') ? isIP(name.slice(1, -1)) === 6 : isIP(name) === 4;
}

/**
 * The host name of a `Host` header, lower case, without its port and a final dot; null when the
 * header is not a host (empty, a user part, a path, a port that is not a number).
 *
 * @example hostName('LocalHost.:4321') // 'localhost'
 * @example hostName('[::1]:4321')      // '[::1]'
 * @example hostName('a@b:4321')        // null
 */
function hostName(header: string): string | null {
  const match = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::\d{1,5})?$/i.exec(header.trim());
  if (!match) return null;
  const name = match[1]!.toLowerCase();
  return name.endsWith('.') ? name.slice(0, -1) : name;
}
