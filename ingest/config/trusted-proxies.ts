/**
 * What `TRUST_PROXY` may name: the addresses and networks whose `X-Forwarded-For` the service
 * believes, written as @fastify's proxy-addr takes them (`10.0.0.1`, `10.0.0.0/8`, `fd00::/8`,
 * `10.0.0.0/255.0.0.0`), and how much of the internet each one trusts.
 *
 * A range that spans nearly every address (`0.0.0.0/0`, `::/0`, `0.0.0.0/1`, `::ffff:0:0/96`,
 * which holds every IPv4 client) would let any client that connects directly write its own
 * `X-Forwarded-For` and pick a fresh address for every request, past every rate limit: such a
 * range is refused, however the list around it reads.
 */
import { isIP } from 'node:net';

/** The shortest prefix a trusted range may have, in either family: a /8 is a large provider's whole network already. */
export const MIN_TRUSTED_PREFIX = 8;

/**
 * The family and prefix length of one entry, as the clients it trusts see it, or null when it is
 * not an address or range proxy-addr accepts. An IPv4-mapped IPv6 range trusts IPv4 clients, so
 * it counts as the IPv4 range it maps.
 *
 * @example trustedRange('10.0.0.0/255.0.0.0') // → { family: 4, bits: 8 }
 * @example trustedRange('::ffff:0:0/96')       // → { family: 4, bits: 0 }
 * @example trustedRange('10.0.0.0/33')         // → null
 */
export function trustedRange(item: string): { family: 4 | 6; bits: number } | null {
  const [address = '', range, ...rest] = item.split('/');
  const family = isIP(address);
  if (rest.length > 0 || (family !== 4 && family !== 6)) return null;
  const max = family === 4 ? 32 : 128;
  let bits: number | null = max;
  if (range !== undefined) bits = /^\d{1,3}$/.test(range) ? Number(range) : family === 4 && isIP(range) === 4 ? netmaskBits(range) : null;
  if (bits === null || bits > max) return null;
  if (family === 6 && isIpv4Mapped(address) && bits >= 96) return { family: 4, bits: bits - 96 };
  return { family, bits };
}

/** True when `item` trusts so much of the internet that any client could forge `X-Forwarded-For`: a prefix shorter than /8. */
export function trustsNearlyEveryone(item: string): boolean {
  const range = trustedRange(item);
  return range !== null && range.bits < MIN_TRUSTED_PREFIX;
}

// 255.255.0.0 → 16; a mask whose ones are not all in front (255.0.255.0) is no mask.
function netmaskBits(mask: string): number | null {
  const binary = mask
    .split('.')
    .map((part) => Number(part).toString(2).padStart(8, '0'))
    .join('');
  return /^1*0*$/.test(binary) ? binary.indexOf('0') === -1 ? 32 : binary.indexOf('0') : null;
}

// ::ffff:a.b.c.d in any spelling (URL writes it as ::ffff:xxxx:xxxx).
function isIpv4Mapped(address: string): boolean {
  if (address.includes('%')) return false; // a zone (fe80::1%eth0): link-local, never mapped
  return /^\[::ffff:[0-9a-f]{1,4}:[0-9a-f]{1,4}\]$/.test(new URL(`http://[${address}]`).hostname);
}
