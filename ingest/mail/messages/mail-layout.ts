/**
 * The one layout of every mail the service sends — the sales mail and the mails to a visitor's
 * address alike — in the site's colours, with its logo, in both parts: the HTML part and a plain
 * text part that carries every link and fact of it. A composer describes its mail as blocks
 * (paragraphs, a button, a table of facts, a quoted message) and this module writes both parts.
 *
 * Every text is escaped here. The composers typeset their own texts (`typography.ts`); the joins
 * this module makes (a label and its colon) are typeset for the mail's language here.
 */
import type { Lang } from '../../contract/languages.ts';
import { escapeHtml } from './escape-html.ts';
import { labelled } from './typography.ts';

/**
 * The site's colours as mail programs can show them (hex; the site's Tailwind 4 palette is in
 * oklch, which most mail programs ignore): teal-700 for buttons and links, as the site's own
 * buttons (`bg-teal-700`) and its logo's stroke; teal-600, the logo's tile; navy-900 for headings.
 */
export const MAIL_COLOURS = {
  accent: '#0f766e',
  logoTile: '#0d9488',
  ink: '#0b1f3a',
  text: '#334155',
  muted: '#52606d',
  page: '#f1f5f9',
  card: '#ffffff',
  rule: '#e2e8f0',
} as const;

/** The site's 192 px app icon, which every build writes at the site's root (`ICONS.any192`). */
export const MAIL_LOGO_PATH = '/icon-192.png';

/** Whose mail it is: the brand's name (the wordmark) and the public site (the logo's link and source). */
interface MailBrand {
  name: string;
  siteUrl: string;
}

/** One fact of a table: `value` is shown as given (visitor text included); `href` makes it a link. */
export interface MailFact {
  label: string;
  value: string;
  href?: string;
}

/** The parts a mail is made of, top to bottom. */
type MailBlock =
  | { kind: 'paragraph'; text: string }
  /** A button; with `hint`, the link is also spelled out under it for programs that hide buttons. */
  | { kind: 'action'; label: string; href: string; hint?: string }
  | { kind: 'facts'; rows: readonly MailFact[] }
  /** A text someone else wrote (the visitor's message), kept with its line breaks. */
  | { kind: 'quote'; label: string; text: string };

/** One mail's texts and links; `footer` items are lines of text or links. */
export interface MailLayout {
  lang: Lang;
  brand: MailBrand;
  /** The document's `<title>`: the mail's subject. */
  title: string;
  /** The line mail programs show after the subject in the inbox. */
  preheader: string;
  heading: string;
  blocks: readonly MailBlock[];
  footer: readonly (string | { text: string; href: string })[];
}

const C = MAIL_COLOURS;
const FONT = "-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,'Noto Sans',sans-serif";
// Long addresses, URLs and words a visitor typed wrap inside the card instead of widening it.
const WRAP = 'overflow-wrap:break-word;word-wrap:break-word;word-break:break-word';

const link = (href: string, text: string, style = `color:${C.accent}`) => `<a href="${escapeHtml(href)}" style="${style}">${escapeHtml(text)}</a>`;

const BLOCK_HTML: { [K in MailBlock['kind']]: (block: MailBlock & { kind: K }) => string } = {
  paragraph: (block) => `<p style="margin:0 0 16px">${escapeHtml(block.text)}</p>`,
  action: (block) =>
    [
      `<p style="margin:24px 0">${link(block.href, block.label, `background:${C.accent};color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:6px;display:inline-block;font-weight:bold;max-width:100%;box-sizing:border-box`)}</p>`,
      ...(block.hint === undefined
        ? []
        : [`<p style="margin:0 0 16px;font-size:14px;color:${C.muted};${WRAP}">${escapeHtml(block.hint)}<br>${link(block.href, block.href, `color:${C.accent};word-break:break-all`)}</p>`]),
    ].join('\n'),
  facts: (block) =>
    [
      `<table style="border-collapse:collapse;width:100%;margin:0 0 16px;table-layout:fixed">`,
      ...block.rows.map(
        (row) =>
          `<tr><th scope="row" style="text-align:left;vertical-align:top;padding:6px 12px 6px 0;width:34%;font-weight:normal;color:${C.muted};border-bottom:1px solid ${C.rule};${WRAP}">${escapeHtml(row.label)}</th>` +
          `<td style="vertical-align:top;padding:6px 0;border-bottom:1px solid ${C.rule};color:${C.ink};${WRAP}">${row.href === undefined ? escapeHtml(row.value) : link(row.href, row.value)}</td></tr>`,
      ),
      '</table>',
    ].join('\n'),
  quote: (block) =>
    [
      `<h2 style="font-size:16px;margin:24px 0 8px;color:${C.ink}">${escapeHtml(block.label)}</h2>`,
      `<blockquote style="margin:0 0 16px;padding:8px 0 8px 14px;border-left:3px solid ${C.accent};white-space:pre-wrap;${WRAP}">${escapeHtml(block.text)}</blockquote>`,
    ].join('\n'),
};

/** The mail's HTML part: the logo and wordmark, a card with the heading and blocks, the footer. */
export function mailHtml(mail: MailLayout): string {
  const home = mail.brand.siteUrl;
  const footer = mail.footer.map((item) => (typeof item === 'string' ? escapeHtml(item) : link(item.href, item.text, `color:${C.muted}`))).join(' · ');
  return [
    `<!doctype html><html lang="${escapeHtml(mail.lang)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light"><title>${escapeHtml(mail.title)}</title></head>`,
    `<body style="margin:0;padding:0;background:${C.page};font-family:${FONT};font-size:16px;color:${C.text};line-height:1.5">`,
    `<div style="display:none;max-height:0;overflow:hidden">${escapeHtml(mail.preheader)}</div>`,
    '<div style="max-width:560px;margin:0 auto;padding:20px 12px">',
    // The wordmark is text, so the brand reads where images are blocked; the logo beside it is decoration (alt="").
    `<p style="margin:0 0 16px"><a href="${escapeHtml(home)}" style="color:${C.ink};text-decoration:none;font-size:20px;font-weight:bold"><img src="${escapeHtml(home + MAIL_LOGO_PATH)}" width="32" height="32" alt="" style="vertical-align:middle;border:0;border-radius:8px;background:${C.logoTile}"> <span style="vertical-align:middle">${escapeHtml(mail.brand.name)}</span></a></p>`,
    `<div style="background:${C.card};border-radius:8px;border-top:4px solid ${C.accent};padding:24px 20px">`,
    `<h1 style="font-size:22px;line-height:1.3;margin:0 0 16px;color:${C.ink};${WRAP}">${escapeHtml(mail.heading)}</h1>`,
    ...mail.blocks.map((block) => (BLOCK_HTML[block.kind] as (b: MailBlock) => string)(block)),
    '</div>',
    `<p style="margin:16px 0 0;font-size:12px;color:${C.muted};text-align:center;${WRAP}">${footer}</p>`,
    '</div>',
    '</body></html>',
  ].join('\n');
}

/** A fact as a line of text: its value, and its link in angle brackets when the value does not spell it out. */
function factLine(lang: Lang, row: MailFact): string {
  const spelled = row.href === undefined || row.href === row.value || row.href === `mailto:${row.value}`;
  return labelled(lang, row.label, spelled ? row.value : `${row.value} <${row.href}>`);
}

const BLOCK_TEXT: { [K in MailBlock['kind']]: (lang: Lang, block: MailBlock & { kind: K }) => string[] } = {
  paragraph: (_lang, block) => [block.text],
  action: (lang, block) => [labelled(lang, block.label, block.href)],
  facts: (lang, block) => block.rows.map((row) => factLine(lang, row)),
  quote: (lang, block) => [labelled(lang, block.label, ''), block.text],
};

/** The mail's text part: the same heading, facts, links and texts, each link written out. */
export function mailText(mail: MailLayout): string {
  const blocks = mail.blocks.flatMap((block) => [...(BLOCK_TEXT[block.kind] as (lang: Lang, b: MailBlock) => string[])(mail.lang, block), '']);
  const footer = mail.footer.map((item) => (typeof item === 'string' ? item : labelled(mail.lang, item.text, item.href)));
  return [mail.heading, '', ...blocks, '--', ...footer, labelled(mail.lang, mail.brand.name, mail.brand.siteUrl)].join('\n').replace(/[ \t]+$/gm, '');
}
