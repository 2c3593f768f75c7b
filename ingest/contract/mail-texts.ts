/**
 * The texts of the mails the ingest service sends to visitors, as they live in the site's
 * resource files (`content/locales/<lang>.json`, section `mail`): edited like every other text,
 * checked by `sitegen check` in every language, and read by the service at start-up. The
 * service fills the `{{placeholders}}` each mail names in `MAIL_PLACEHOLDERS`. Nothing a visitor
 * typed goes into the mails to a visitor's address; the sales mail, which goes to the sales team
 * in the language of `SALES_LANG`, shows the visitor's name and message.
 */
import * as z from 'zod/mini';

const text = z.string().check(z.minLength(1), z.maxLength(600));

/** The confirmation mail of a newsletter signup (double opt-in). */
const confirmMailTextsSchema = z.object({
  subject: text,
  preheader: text,
  heading: text,
  intro: text,
  button: text,
  linkHint: text,
  expiry: text,
  ignore: text,
  unsubscribe: text,
  signature: text,
});

/** The confirmation mail of a contact message sent without JavaScript (no captcha): the sender confirms the address; no unsubscribe link (no subscription). */
const contactConfirmMailTextsSchema = z.omit(confirmMailTextsSchema, { unsubscribe: true });

/**
 * The mail to an address already subscribed that was signed up again: it tells the owner (and
 * only the owner: the form's answer is the same for every address) that nothing changed, with a
 * way to leave. No confirmation link, so no button text, link hint or expiry.
 */
const alreadySubscribedMailTextsSchema = z.object({
  subject: text,
  preheader: text,
  heading: text,
  intro: text,
  nothingToDo: text,
  leave: text,
  unsubscribe: text,
  signature: text,
});

/**
 * The mail the sales team receives for each contact: the reason (one text per contact intent) and
 * the visitor's name in the subject, the labels of the facts at a glance, the reply button, the
 * message's heading and the footer line.
 */
const salesMailTextsSchema = z.object({
  subject: text,
  reasonDemo: text,
  reasonSales: text,
  reasonQuestion: text,
  company: text,
  country: text,
  phone: text,
  email: text,
  language: text,
  received: text,
  sourcePage: text,
  notGiven: text,
  unknownPage: text,
  reply: text,
  replyHint: text,
  message: text,
  footer: text,
});

/** The `mail` section of a resource file. */
export const mailTextsSchema = z.object({
  confirm: confirmMailTextsSchema,
  contactConfirm: contactConfirmMailTextsSchema,
  alreadySubscribed: alreadySubscribedMailTextsSchema,
  sales: salesMailTextsSchema,
});

/** The placeholders the service fills in each mail's texts; any other one is an error of `sitegen check`. */
export const MAIL_PLACEHOLDERS = {
  confirm: ['brand', 'days'],
  contactConfirm: ['brand', 'days'],
  alreadySubscribed: ['brand'],
  sales: ['brand', 'reason', 'name'],
} as const satisfies Record<keyof z.output<typeof mailTextsSchema>, readonly string[]>;

/** One language's mail texts. */
export type MailTexts = z.output<typeof mailTextsSchema>;
