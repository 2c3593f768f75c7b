/**
 * The reason a queue logs and records for anything thrown: its message, with every e-mail address
 * replaced by `<address>`, so that neither the log nor a row's `last_error` holds a visitor's
 * address (an SMTP reply often quotes the recipient; a database error may quote a row).
 */

// An address as SMTP replies and error messages write it: a local part, @, a domain with a dot.
const ADDRESS = /<?[\p{L}\p{N}._%+!#$&'*/=?^`{|}~-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+>?/gu;

/**
 * The message of anything thrown, with every e-mail address in it replaced by `<address>`.
 *
 * @example messageOf(new Error('550 5.1.1 <ana@example.com>: Recipient address rejected'))
 * // → '550 5.1.1 <address>: Recipient address rejected'
 */
export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error)).replace(ADDRESS, '<address>');
