/**
 * The wider IPv6 networks a client belongs to. Every per-client limit counts an IPv6 client by its
 * /64 (@fastify/rate-limit's `normalizeIP`), the smallest network one subscriber gets; but a
 * provider hands a home or an office a /56 and a site or an organisation a /48 (RFC 6177), so one
 * party holds 256 or 65,536 /64s, each with a fresh allowance. The networks below are counted as
 * well, each at a multiple of a /64's allowance. An IPv4 client (or an IPv4-mapped IPv6 address)
 * has none: its address is the client.
 */
import { isIPv6 } from 'node:net';
import { normalizeIP } from '@fastify/rate-limit';

/** The prefix lengths counted beyond the /64, narrowest first. */
export const WIDER_PREFIXES = [56, 48] as const;

/** A prefix length counted beyond the /64. */
export type WiderPrefix = (typeof WIDER_PREFIXES)[number];

/** How many times a /64's allowance each wider network shares (`RATE_LIMIT_IPV6_56_FACTOR`, `RATE_LIMIT_IPV6_48_FACTOR`). */
export interface Ipv6Factors {
  per56: number;
  per48: number;
}

/** The factor of a prefix length: `factorOf({ per56: 4, per48: 16 }, 48)` → 16. */
export function factorOf(factors: Ipv6Factors, bits: WiderPrefix): number {
  return bits === 56 ? factors.per56 : factors.per48;
}

/**
 * The network of `ip` with `bits` leading bits, as a key's text, or null for an IPv4 client.
 *
 * @example networkOf('2001:db8:a:1234:5::1', 56) // → '2001:db8:a:1200::'
 * @example networkOf('2001:db8:a:1234:5::1', 48) // → '2001:db8:a::'
 * @example networkOf('::ffff:192.0.2.1', 48)      // → null
 */
export function networkOf(ip: string, bits: WiderPrefix): string | null {
  const client = normalizeIP(ip);
  return isIPv6(client) ? normalizeIP(ip, bits) : null;
}
