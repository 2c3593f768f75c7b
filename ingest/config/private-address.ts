/**
 * Whether an IP address is one a public webhook endpoint cannot have: private, loopback,
 * link-local, carrier-grade NAT, unspecified, multicast or reserved, in either family, and the
 * same IPv4 addresses however IPv6 embeds them — IPv4-mapped (`::ffff:127.0.0.1`, which a URL
 * parser writes `::ffff:7f00:1`), IPv4-compatible (`::7f00:1`), SIIT (`::ffff:0:a.b.c.d`), NAT64
 * (`64:ff9b::/96`; the local-use `64:ff9b:1::/48` is private as a whole) and 6to4 (`2002::/16`);
 * Teredo (`2001::/32`), whose IPv4 part is obscured, is refused as a whole.
 *
 *   isPrivateAddress('::ffff:7f00:1')      → true   (127.0.0.1)
 *   isPrivateAddress('64:ff9b::a9fe:a9fe') → true   (169.254.169.254 through NAT64)
 *   isPrivateAddress('2606:4700::1111')    → false
 */
import { isIPv4, isIPv6 } from 'node:net';

const PRIVATE_V4: ReadonlyArray<[number, number]> = [
  [0x00000000, 8], // 0.0.0.0/8 "this network"
  [0x0a000000, 8], // 10/8
  [0x64400000, 10], // 100.64/10 carrier-grade NAT
  [0x7f000000, 8], // 127/8 loopback
  [0xa9fe0000, 16], // 169.254/16 link-local (cloud metadata services)
  [0xac100000, 12], // 172.16/12
  [0xc0000000, 24], // 192.0.0/24 IETF protocol assignments
  [0xc0a80000, 16], // 192.168/16
  [0xc6120000, 15], // 198.18/15 benchmarking
  [0xe0000000, 3], // 224/3 multicast and reserved
];

/** True for an address (either family) a public endpoint cannot have; false for anything that is not an IP address. */
export function isPrivateAddress(address: string): boolean {
  if (isIPv4(address)) return isPrivateV4(v4Value(address));
  if (!isIPv6(address)) return false;
  const groups = v6Groups(address.replace(/%.*$/, ''));
  const [g0, g1, g2, g3, g4, g5] = groups;
  const low32 = groups[6]! * 0x10000 + groups[7]!;
  const zeroTo = (n: number) => groups.slice(0, n).every((group) => group === 0);
  if (zeroTo(8) || (zeroTo(7) && groups[7] === 1)) return true; // :: and ::1
  if (zeroTo(5) && (g5 === 0xffff || g5 === 0)) return isPrivateV4(low32); // ::ffff:a.b.c.d, ::a.b.c.d
  if (zeroTo(4) && g4 === 0xffff && g5 === 0) return isPrivateV4(low32); // ::ffff:0:a.b.c.d (SIIT)
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return isPrivateV4(low32); // NAT64 well-known prefix
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return true; // local-use NAT64
  if (g0 === 0x2002) return isPrivateV4(g1! * 0x10000 + g2!); // 6to4
  if (g0 === 0x2001 && g1 === 0) return true; // Teredo
  if (g0 === 0x2001 && g1 === 0xdb8) return true; // documentation
  if ((g0! & 0xfe00) === 0xfc00) return true; // fc00::/7 unique local
  if ((g0! & 0xffc0) === 0xfe80 || (g0! & 0xffc0) === 0xfec0) return true; // fe80::/10 link-local, fec0::/10 site-local
  if ((g0! & 0xff00) === 0xff00) return true; // ff00::/8 multicast
  return false;
}

function v4Value(address: string): number {
  return address.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

function isPrivateV4(value: number): boolean {
  return PRIVATE_V4.some(([base, bits]) => Math.floor(value / 2 ** (32 - bits)) === Math.floor(base / 2 ** (32 - bits)));
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a trailing dotted IPv4 part as two groups). */
function v6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted !== null) {
    const value = v4Value(dotted[1]!);
    text = `${text.slice(0, dotted.index)}${Math.floor(value / 0x10000).toString(16)}:${(value % 0x10000).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const parse = (part: string | undefined) => (part === undefined || part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16)));
  const front = parse(head);
  const back = parse(tail);
  return tail === undefined ? front : [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}
