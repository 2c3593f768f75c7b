import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { moduleGraph } from '../assets/module-graph.ts';

/**
 * The template component each page type renders inside the layout (`PageBody` in
 * cli/pipeline/render-page.tsx; a test keeps the two in step), relative to the templates folder.
 * A page not listed here (a page added as Markdown) counts as using every template.
 */
const PAGE_TEMPLATES: Readonly<Record<string, string>> = {
  home: 'pages/HomePage.tsx',
  about: 'pages/AboutPage.tsx',
  solutions: 'pages/SolutionsPage.tsx',
  contact: 'pages/ContactPage.tsx',
  contactDemo: 'pages/ContactPage.tsx',
  contactSales: 'pages/ContactPage.tsx',
  notFound: 'pages/NotFoundPage.tsx',
  cookies: 'pages/LegalPage.tsx',
  legalNotice: 'pages/LegalPage.tsx',
  privacy: 'pages/LegalPage.tsx',
  dataHandling: 'pages/DataHandlingPage.tsx',
  howItWorks: 'pages/HowItWorksPage.tsx',
  newsletterConfirm: 'pages/service/TokenFormPage.tsx',
  newsletterUnsubscribe: 'pages/service/TokenFormPage.tsx',
  newsletterConfirmed: 'pages/service/NewsletterOutcomePage.tsx',
  newsletterUnsubscribed: 'pages/service/NewsletterOutcomePage.tsx',
  linkInvalid: 'pages/service/NewsletterOutcomePage.tsx',
  newsletterCheckInbox: 'pages/service/NewsletterOutcomePage.tsx',
  formNotAcceptedRequired: 'pages/service/FormOutcomePage.tsx',
  formNotAcceptedEmail: 'pages/service/FormOutcomePage.tsx',
  formNotAcceptedTooLong: 'pages/service/FormOutcomePage.tsx',
  formNotAcceptedConsent: 'pages/service/FormOutcomePage.tsx',
  formNotAcceptedCountry: 'pages/service/FormOutcomePage.tsx',
  formNotAcceptedCaptcha: 'pages/service/FormOutcomePage.tsx',
  formNotAcceptedInvalidChars: 'pages/service/FormOutcomePage.tsx',
  formNotAcceptedInvisibleChars: 'pages/service/FormOutcomePage.tsx',
  tooManyAttempts: 'pages/service/FormOutcomePage.tsx',
  formNotStored: 'pages/service/FormOutcomePage.tsx',
  contactCheckInbox: 'pages/service/ContactOutcomePage.tsx',
  contactConfirm: 'pages/service/TokenFormPage.tsx',
  contactConfirmed: 'pages/service/ContactOutcomePage.tsx',
  contactLinkInvalid: 'pages/service/ContactOutcomePage.tsx',
};

/** The template of the pages added as Markdown files (page ids `content:<name>`). */
const CONTENT_PAGE_TEMPLATE = 'pages/ContentPage.tsx';

/** What every page renders around its own template: the document, the layout, the body's end, the page context. */
const SHARED_TEMPLATES = ['layout/Document.tsx', 'layout/Layout.tsx', 'layout/BodyEnd.tsx', 'page-context.tsx'];

/** Which template files each page uses, as paths relative to the templates folder with forward slashes. */
export interface TemplateGraphs {
  /** The files every page uses. */
  shared: ReadonlySet<string>;
  /** Per page type, the files of its own template; undefined for a page whose template is not known (it counts as using all). */
  pageFiles(page: string): ReadonlySet<string> | undefined;
  /** The files the island bundle is built from (a change rebuilds it). */
  islands: ReadonlySet<string>;
}

/** Every template file the given entries import, relative to `templatesDir`; files outside it are left out. */
function graphOf(templatesDir: string, entries: readonly string[]): Set<string> {
  const files = moduleGraph(entries.map((entry) => join(templatesDir, entry)));
  return new Set(files.map((file) => relative(templatesDir, file)).filter((file) => !file.startsWith('..')).map((file) => file.split(sep).join('/')));
}

/**
 * Reads the templates' imports (they change as templates are edited, so this is asked again
 * after each edit). Throws when an import names a missing file; the caller then rebuilds
 * everything and the template loader reports the error.
 */
export function templateGraphs(templatesDir: string, islandEntries: readonly string[]): TemplateGraphs {
  const byFile = new Map<string, Set<string>>();
  for (const file of [...Object.values(PAGE_TEMPLATES), CONTENT_PAGE_TEMPLATE]) {
    if (!byFile.has(file) && existsSync(join(templatesDir, file))) byFile.set(file, graphOf(templatesDir, [file]));
  }
  return {
    shared: graphOf(templatesDir, SHARED_TEMPLATES),
    pageFiles: (page) => byFile.get(page.startsWith('content:') ? CONTENT_PAGE_TEMPLATE : (Object.hasOwn(PAGE_TEMPLATES, page) ? PAGE_TEMPLATES[page]! : '')),
    islands: graphOf(templatesDir, islandEntries.map((file) => relative(templatesDir, file))),
  };
}

/** The page template file of each page type, for the test that keeps this table and render-page.tsx in step. */
export function pageTemplateFiles(): readonly string[] {
  return [...new Set([...Object.values(PAGE_TEMPLATES), CONTENT_PAGE_TEMPLATE, ...SHARED_TEMPLATES])];
}
