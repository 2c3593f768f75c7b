/**
 * The facts about personal data that the legal texts and the pages state, in one table: how long
 * a link works, how often a mailbox may be mailed, how long each kind of data is kept. The service
 * applies these numbers (retention, the per-recipient cap, the captcha's lifetime, the limits it
 * accepts from its environment), and `sitegen` fills them into the privacy and cookie texts and
 * the strings through `{{placeholders}}` of the same names, so a text cannot promise one number
 * while the code keeps another. `sitegen check` refuses a legal text or string that writes one of
 * these durations by hand, and a language whose legal text leaves out a fact English states.
 *
 * Browser-safe: no Node imports.
 */

/** Every fact, a whole number in the unit its name ends with. */
export const DATA_FACTS = {
  /** Days a confirmation link works; an unconfirmed signup or contact message is deleted when its link expires. */
  linkDays: 7,
  /** Minutes between two mails to the same mailbox, at the least (per form). */
  resendMinutes: 10,
  /** Mails to the same mailbox per UTC day, at most (per form). */
  mailsPerDay: 3,
  /** Hours after the end of its UTC day within which a mailbox's mail count is deleted (the daily clean-up). */
  mailCountHours: 25,
  /** Minutes a captcha question can be answered; its identifier is deleted within a minute after. */
  captchaMinutes: 10,
  /** Minutes a per-client rate-limit window counts. */
  rateWindowMinutes: 1,
  /** Hours a per-client daily counter counts, from the first request it counts. */
  dailyCounterHours: 24,
  /** Minutes a form's count of every visitor's posts together (the hourly ceiling) counts; it holds no address. */
  formCeilingMinutes: 60,
  /**
   * Years a contact message is kept after it was received, by the service and in the sales mailbox
   * (docs/leads.md); also the record that a webhook endpoint received a person's data (address,
   * endpoint, event, time, sequence; no content) after the last delivery, so an erasure can be
   * passed on to it (the newest record per endpoint is kept longer, while the person's
   * subscription or message is kept).
   */
  contactYears: 2,
  /** Years the anonymous record of consent events is kept. */
  consentEventYears: 3,
  /** Days a webhook delivery to a CRM or newsletter tool is retried before it is set aside as failed. */
  webhookRetryDays: 3,
  /** Days a failed webhook delivery keeps its content for the operator to send again; then it is deleted. */
  webhookFailedDays: 14,
  /** Days within which backups are overwritten (the operators' backup rotation, docs/operators.md). */
  backupDays: 30,
  /** Days a line of the web server's access log is kept at most (Debian's logrotate for nginx: daily, 14 old files). */
  accessLogDays: 15,
} as const;

/** The name of a fact, usable as `{{name}}` in the strings and the Markdown pages. */
export type DataFact = keyof typeof DATA_FACTS;

/** The facts' names, in the table's order. */
export const DATA_FACT_NAMES = Object.keys(DATA_FACTS) as DataFact[];

/** Days in a year of the retention table (a contact kept 2 years is kept 730 days). */
const DAYS_PER_YEAR = 365;

/** A fact given in years, as the whole days the code counts. */
export const yearsInDays = (years: number): number => years * DAYS_PER_YEAR;

/** The unit of a fact, from the end of its name. */
export function unitOf(fact: DataFact): 'days' | 'minutes' | 'hours' | 'years' | 'count' {
  const match = /(Days|Minutes|Hours|Years)$/.exec(fact);
  return match ? (match[1]!.toLowerCase() as 'days' | 'minutes' | 'hours' | 'years') : 'count';
}
