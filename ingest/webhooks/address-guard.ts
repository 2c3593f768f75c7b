/**
 * The DNS lookup every delivery connects through: it resolves the endpoint's host and refuses the
 * connection when any address it gets is private, loopback or link-local (cloud metadata at
 * 169.254.169.254 included, and IPv4 addresses embedded in IPv6: `config/private-address.ts`), unless the operator set `WEBHOOK_ALLOW_PRIVATE=1`. The check is on
 * the address the socket then connects to, not on the name, so a host name whose DNS answer changes
 * after start-up (DNS rebinding) cannot reach the internal network either.
 */
import { type LookupAddress, lookup } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { isPrivateAddress } from '../config/private-address.ts';

/** A `lookup` for `http.request` that refuses private addresses unless `allowPrivate`. */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (error, found) => {
      if (error !== null) return callback(error, '', 0);
      const addresses = found as LookupAddress[];
      const blocked = allowPrivate ? undefined : addresses.find((entry) => isPrivateAddress(entry.address));
      if (blocked !== undefined) {
        const refusal = Object.assign(new Error(`${hostname} resolves to ${blocked.address}, a private or loopback address (WEBHOOK_ALLOW_PRIVATE is not set)`), {
          code: 'ERR_WEBHOOK_PRIVATE_ADDRESS',
        });
        return callback(refusal, '', 0);
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0]!;
      callback(null, first.address, first.family);
    });
  };
}
