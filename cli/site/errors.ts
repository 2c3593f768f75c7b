/**
 * The one catalogue of sitegen errors, used by `sitegen build`, `sitegen check` and the command
 * line. Each entry has a permanent code (scripts and people search for it: never rename one),
 * what happened in general, and what to do. A reported problem adds the place (`file:line`) and
 * the particulars; the "Error codes" table of docs/sitegen.md documents every code (a test keeps
 * the two in step).
 */

/** Every error sitegen can report, keyed by its permanent code. */
export const SITEGEN_ERRORS = {
  content_unreadable: {
    title: 'A content file is not valid JSON.',
    hint: 'Fix the syntax at the position given; a missing comma or quote is the usual cause.',
  },
  content_invalid: {
    title: 'A content file does not match its schema.',
    hint: 'Correct the named field; docs/content.md, "Where the content lives", says what each file holds.',
  },
  content_missing: {
    title: 'A language lacks one of its content files.',
    hint: 'Copy the English file into the language folder, keep its structure and translate it.',
  },
  placeholder_unknown: {
    title: 'A {{placeholder}} has no value.',
    hint: 'Use one of the placeholders docs/content.md lists, or add the value to content/site.json.',
  },
  fact_by_hand: {
    title: 'A legal text or string writes by hand a duration that the data facts table holds.',
    hint: 'Write the {{placeholder}} the message names instead of the number, so the text says what the service does (docs/content.md, "Numbers the service applies").',
  },
  fact_missing: {
    title: "A language's legal text leaves out a fact the English text states.",
    hint: 'State the fact in this language too, through the {{placeholder}} the English text uses.',
  },
  typography: {
    title: "A text breaks its language's typography.",
    hint: 'Write the character the message names: "…" for "...", the narrow no-break space of French punctuation, the language\'s own quotation marks, the Spanish comma after "por ejemplo".',
  },
  key_missing: {
    title: 'A translation key exists in some languages but not in this one.',
    hint: 'Add the key to this language file, translated, or delete it from every language.',
  },
  key_only_in_one_language: {
    title: 'A translation key exists in one language only.',
    hint: 'Add it to content/locales/en.json and the other languages, or delete it (a typo in the key?).',
  },
  key_unknown: {
    title: 'A template uses a translation key that no language file has.',
    hint: 'Add the key to content/locales/en.json and translate it, or fix the key in the template.',
  },
  mail_text_invalid: {
    title: 'A text of the mails the ingest service sends (the `mail` section) is missing, too long or uses a placeholder the service does not fill.',
    hint: 'Every language needs every `mail.confirm.*` and `mail.contactConfirm.*` key, each at most 600 characters, with only {{brand}} and {{days}} as placeholders; the service refuses to start otherwise.',
  },
  key_empty: {
    title: 'A translation is empty.',
    hint: 'Write the text; an empty string would show nothing on the page.',
  },
  placeholders_differ: {
    title: "A translation's {{placeholders}} differ from the English text's.",
    hint: 'Use exactly the placeholders of the English string (their names are never translated).',
  },
  tags_differ: {
    title: "A translation's <tags> differ from the English text's.",
    hint: 'Keep every <tag>…</tag> pair of the English string around the matching words.',
  },
  title_count: {
    title: 'A Markdown page has the wrong number of "# " titles.',
    hint: 'A legal text keeps one "# " heading at the top; a page with front matter takes its title from "title:" and has none. Use "## " for sections.',
  },
  sections_differ: {
    title: 'A Markdown page has a different number of "## " sections than its English text.',
    hint: 'Translate section by section: one "## " heading for each English one, in the same order.',
  },
  front_matter_invalid: {
    title: "A Markdown page's front matter is missing, not valid YAML or has a bad field.",
    hint: 'Start the file with "---", then title, description and slug (nav, navLabel, navOrder optional), then "---"; docs/content.md, "Add a page", shows one.',
  },
  front_matter_language: {
    title: 'A Markdown page\'s front matter is written in a language other than YAML ("---js", "---coffee"), which sitegen never reads or runs.',
    hint: 'Open the front matter with a plain "---" line and write it in YAML (title: …, description: …, slug: …); front matter is data, never code.',
  },
  slug_conflict: {
    title: "A Markdown page's slug gives a URL that another page of that language already has.",
    hint: 'Choose another slug in the front matter; each language needs its own URL for each page, clear of the fixed pages.',
  },
  page_translation_missing: {
    title: 'A page added as Markdown has no text in this language (a warning: it is published in the others).',
    hint: 'Copy the English file into the language folder with the same file name, translate it (slug too), then run `sitegen translated <lang> <name>.md`.',
  },
  translation_outdated: {
    title: 'The English text changed since this translation was made (a warning; an error with --strict).',
    hint: 'Update the translation to the new English, then run `sitegen translated <lang> <key or name.md>` to record it; `sitegen status` shows all.',
  },
  link_to_no_route: {
    title: 'A link in content or templates leads to no page of the routes table.',
    hint: 'Link an existing page (cli/site/routes.ts lists them) or add the page.',
  },
  output_dir_foreign: {
    title: 'The output folder is not empty and was not made by sitegen.',
    hint: 'Choose an empty or new folder with --out, or delete this one first.',
  },
  output_languages_dropped: {
    title: 'The output folder holds languages this build leaves out (--lang), and replacing it would remove them from the site.',
    hint: 'Build every language (omit --lang), or give a --lang build its own folder with --out; to preview one language while editing, use sitegen dev.',
  },
  output_link_broken: {
    title: 'A built page links to a file or page that does not exist (404).',
    hint: 'Correct the link in the template or content, or build the missing language (--lang).',
  },
  output_link_redirects: {
    title: 'A built page links to a URL that only redirects.',
    hint: 'Link the canonical URL (lower case, no trailing slash) to save visitors a round trip.',
  },
  output_fragment_missing: {
    title: 'A built page links to a #fragment that no element of the target has.',
    hint: 'Give the target element that id, or correct the fragment.',
  },
  output_id_duplicate: {
    title: 'An id is used more than once in a built page.',
    hint: 'Make the ids unique; links, labels and scripts find only the first.',
  },
  output_canonical: {
    title: "A built page's canonical link is missing, repeated or points elsewhere.",
    hint: 'Each indexable page needs one canonical link to itself (an alias to the page it repeats); fix the route or template.',
  },
  output_hreflang: {
    title: "A built page's hreflang alternates are incomplete or not reciprocal.",
    hint: 'Every language version must list all the others and itself plus x-default; check the routes table.',
  },
  output_sitemap: {
    title: 'sitemap.xml disagrees with the pages built.',
    hint: 'The sitemap and the page heads come from the routes table; a custom change to one of them needs the other.',
  },
  seo_title_length: {
    title: "An indexed page's title is longer than search results show (60 characters).",
    hint: 'Shorten the title, the brand included: meta.<page>.title in content/locales/<lang>.json, or the front matter\'s "title:" of a page added as Markdown (" — " and the brand are added to it); then run `sitegen translated <lang> <key>` for a translation you changed.',
  },
  seo_description_length: {
    title: "An indexed page's description is shorter than 70 or longer than 160 characters.",
    hint: 'Write 70–160 characters that say what the page offers: meta.<page>.description in content/locales/<lang>.json, or the front matter\'s "description:" of a page added as Markdown.',
  },
  seo_title_duplicate: {
    title: 'Two indexed pages of one language have the same title.',
    hint: 'Give each page a title of its own (meta.<page>.title, or the front matter\'s "title:"), so that a search result tells them apart.',
  },
  seo_description_duplicate: {
    title: 'Two indexed pages of one language have the same description.',
    hint: 'Give each page a description of its own (meta.<page>.description, or the front matter\'s "description:").',
  },
  seo_image_alt: {
    title: 'A built page has an <img> without an alt attribute.',
    hint: 'Describe the image in alt="…" (in the page\'s language, through a translation key), or write alt="" when it only decorates.',
  },
  seo_heading_skipped: {
    title: 'A built page skips a heading level (an <h3> after an <h1>).',
    hint: 'Use the next level down (an <h2> after the <h1>); in Markdown, "## " after the title, "### " inside a "## " section.',
  },
  output_social_image: {
    title: "A built page's social image (og:image) is not a PNG of the size its og:image:width and og:image:height state.",
    hint: 'The cards are rendered by the build (cli/assets/cards/page-cards.ts); clear the card cache (node_modules/.cache/sitegen/cards) and build again, and keep SOCIAL_IMAGE in cli/site/asset-paths.ts and the card template\'s size the same.',
  },
  structured_data_invalid: {
    title: "A page's structured data (schema.org JSON-LD) lacks a property search engines need, holds an empty or unfilled text, or does not fit its kind of page.",
    hint: 'The message names the node and property; the JSON-LD is made from content/site.json (brand, company, product) and the page\'s strings (meta.*.title and description, nav.home): fill the value there.',
  },
  security_contact_missing: {
    title: 'content/site.json names no security contact, so /.well-known/security.txt (RFC 9116) cannot be written.',
    hint: 'Add "securityContacts" to content/site.json: a list with at least one "mailto:" address (an "https://" page may follow) where people report vulnerabilities.',
  },
  template_failed: {
    title: 'A template does not compile, or failed while rendering a page (sitegen dev).',
    hint: 'Fix the template at the line given; sitegen dev renders the page again when the file is saved.',
  },
  option_invalid: {
    title: 'A command-line option has a bad value.',
    hint: 'Run `npm run sitegen -- help <command>` for the accepted values.',
  },
  port_unavailable: {
    title: 'A local server cannot listen on its port.',
    hint: 'Stop the program that holds the port, or choose another: --port (--host) for sitegen preview, PORT, INGEST_PORT (HOST) for npm start and sitegen dev.',
  },
} as const satisfies Record<string, { title: string; hint: string }>;

/** A permanent sitegen error code such as `'key_missing'`. */
export type SitegenErrorCode = keyof typeof SITEGEN_ERRORS;

/** One problem found: its code, where (`file`, and `line` where known) and the particulars. */
export interface Problem {
  code: SitegenErrorCode;
  file: string;
  line?: number;
  message: string;
}

/**
 * Formats a problem the way editors and CI logs link to it.
 *
 * @example formatProblem({ code: 'key_empty', file: 'content/locales/de.json', line: 12, message: 'key "nav.about" is empty' })
 * // 'content/locales/de.json:12: key "nav.about" is empty [key_empty]'
 */
export function formatProblem({ code, file, line, message }: Problem): string {
  return `${file}${line ? `:${line}` : ''}: ${message} [${code}]`;
}

/** What to do, once per code among `problems`: `key_empty: Write the text; …`. */
export function problemHints(problems: readonly Problem[]): string[] {
  return [...new Set(problems.map((p) => p.code))].map((code) => `${code}: ${SITEGEN_ERRORS[code].hint}`);
}

/** An expected failure while loading content, carrying its problems (the build reports them, never crashes). */
export class ContentError extends Error {
  override name = 'ContentError';
  readonly problems: readonly Problem[];

  constructor(problems: readonly Problem[]) {
    super(problems.map(formatProblem).join('\n'));
    this.problems = problems;
  }
}
