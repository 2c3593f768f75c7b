import type { IssueCode } from '../../ingest/contract/schemas.ts';

/** The translated messages of the contract's issue codes (`validation.*`), as a form island receives them. */
export type ValidationMessages = Record<IssueCode, string>;
