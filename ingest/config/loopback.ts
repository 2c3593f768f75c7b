/** Which hosts only this machine (or this container) can reach: the settings that may trust a peer there. */

/**
 * Tells whether `host` (a name or an IP literal, IPv6 with or without brackets) is on loopback:
 * 127.0.0.0/8, `::1` (or IPv4-mapped `::ffff:127.x.y.z`) and `localhost`. Any other name counts as
 * remote, whatever it resolves to today.
 *
 * @example isLoopbackHost('127.0.0.1') // → true
 * @example isLoopbackHost('[::1]') // → true
 * @example isLoopbackHost('mail.example.com') // → false
 */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}
