import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { BodyEnd } from '../../templates/layout/BodyEnd.tsx';
import { BODY_CLASS, Document } from '../../templates/layout/Document.tsx';
import { Layout } from '../../templates/layout/Layout.tsx';
import { AboutPage } from '../../templates/pages/AboutPage.tsx';
import { ContactPage } from '../../templates/pages/ContactPage.tsx';
import { ContentPage } from '../../templates/pages/ContentPage.tsx';
import { DataHandlingPage } from '../../templates/pages/DataHandlingPage.tsx';
import { HomePage } from '../../templates/pages/HomePage.tsx';
import { HowItWorksPage } from '../../templates/pages/HowItWorksPage.tsx';
import { LegalPage } from '../../templates/pages/LegalPage.tsx';
import { NotFoundPage } from '../../templates/pages/NotFoundPage.tsx';
import { SolutionsPage } from '../../templates/pages/SolutionsPage.tsx';
import { type ContactOutcomePage as ContactOutcome, ContactOutcomePage } from '../../templates/pages/service/ContactOutcomePage.tsx';
import { type FormOutcomePage as FormOutcome, FormOutcomePage } from '../../templates/pages/service/FormOutcomePage.tsx';
import { NewsletterOutcomePage, type OutcomePage } from '../../templates/pages/service/NewsletterOutcomePage.tsx';
import { TokenFormPage, type TokenPage } from '../../templates/pages/service/TokenFormPage.tsx';
import { PageProvider, type PageContextValue } from '../../templates/page-context.tsx';
import { ICONS, SOCIAL_IMAGE } from '../site/asset-paths.ts';
import type { RenderedContentPage } from '../site/markdown/render-markdown.ts';
import { absoluteUrl, hreflangLinks, socialMetaTags } from '../site/head/head.ts';
import { pageMeta } from '../site/head/page-meta.ts';
import type { RenderedMarkdown } from '../site/markdown/markdown.ts';
import type { PageId, RoutePageId } from '../site/routes.ts';
import { classesInHtml, criticalCss, type CssNode, siteOriginProperty } from './critical-css.ts';
import type { Problem } from '../site/errors.ts';
import { pathFor } from '../site/routes.ts';
import { jsonForScript, structuredData } from './structured-data/graph.ts';
import { structuredDataProblems } from './structured-data/schemas.ts';

export interface PageToRender {
  context: Omit<PageContextValue, 'islandsOnPage'>;
  /** The URL path the page is served at (`/de/404` for a 404 page). */
  path: string;
  /** Its file in the output folder, which the problems found in it name. */
  file: string;
  /** The canonical path; none for a page search engines must not index (`noindex`: the 404 and service pages). */
  canonicalPath: string | null;
  /** The site stylesheet's URL, and its parsed rules (the page inlines those its markup uses). */
  stylesheet: string;
  cssRules: readonly CssNode[];
  /** The island loader, inlined at the end of the body of pages that contain islands. */
  loader: string;
  /** The rendered long text, for the legal pages. */
  markdown?: RenderedMarkdown;
  /** The rendered page, for a page added as Markdown. */
  contentPage?: RenderedContentPage;
  /** A small classic script run before the page renders (the 404 pages' wrong-case redirect). */
  headScript?: string;
  /** The 1200×630 sharing image: the page's own card and what it shows, or (no `alt`) the language's image. */
  socialImage: { url: string; alt?: string };
}

/** What a page's body is made from: the legal pages' text, or a page added as Markdown. */
interface BodyInput {
  markdown?: RenderedMarkdown;
  contentPage?: RenderedContentPage;
}

/** Makes one page's body. */
type Body = (input: BodyInput) => ReactElement;

const legalText: Body = ({ markdown }) => {
  if (!markdown) throw new Error('a legal page needs its Markdown text');
  return <LegalPage document={markdown} />;
};
const tokenForm = (page: TokenPage): Body => () => <TokenFormPage page={page} />;
const newsletterOutcome = (page: OutcomePage): Body => () => <NewsletterOutcomePage page={page} />;
const formOutcome = (page: FormOutcome): Body => () => <FormOutcomePage page={page} />;
const contactOutcome = (page: ContactOutcome): Body => () => <ContactOutcomePage page={page} />;

/**
 * The template of every page of the routes table (and the 404 page), by page id: a page the table
 * gains without a row here is a type error, not a page rendered by the wrong template.
 */
const PAGE_BODIES: Readonly<Record<PageId | 'notFound', Body>> = {
  home: () => <HomePage />,
  about: () => <AboutPage />,
  solutions: () => <SolutionsPage />,
  contact: () => <ContactPage intent="general" />,
  contactDemo: () => <ContactPage intent="demo" />,
  contactSales: () => <ContactPage intent="sales" />,
  notFound: () => <NotFoundPage />,
  cookies: legalText,
  legalNotice: legalText,
  privacy: legalText,
  dataHandling: () => <DataHandlingPage />,
  howItWorks: () => <HowItWorksPage />,
  newsletterConfirm: tokenForm('newsletterConfirm'),
  newsletterUnsubscribe: tokenForm('newsletterUnsubscribe'),
  contactConfirm: tokenForm('contactConfirm'),
  newsletterConfirmed: newsletterOutcome('newsletterConfirmed'),
  newsletterUnsubscribed: newsletterOutcome('newsletterUnsubscribed'),
  linkInvalid: newsletterOutcome('linkInvalid'),
  newsletterCheckInbox: newsletterOutcome('newsletterCheckInbox'),
  formNotAcceptedRequired: formOutcome('formNotAcceptedRequired'),
  formNotAcceptedEmail: formOutcome('formNotAcceptedEmail'),
  formNotAcceptedTooLong: formOutcome('formNotAcceptedTooLong'),
  formNotAcceptedConsent: formOutcome('formNotAcceptedConsent'),
  formNotAcceptedCountry: formOutcome('formNotAcceptedCountry'),
  formNotAcceptedCaptcha: formOutcome('formNotAcceptedCaptcha'),
  formNotAcceptedInvalidChars: formOutcome('formNotAcceptedInvalidChars'),
  formNotAcceptedInvisibleChars: formOutcome('formNotAcceptedInvisibleChars'),
  tooManyAttempts: formOutcome('tooManyAttempts'),
  formNotStored: formOutcome('formNotStored'),
  contactCheckInbox: contactOutcome('contactCheckInbox'),
  contactConfirmed: contactOutcome('contactConfirmed'),
  contactLinkInvalid: contactOutcome('contactLinkInvalid'),
};

/** A page's body: its template from the table, or, for a page added as Markdown, the content page. */
function PageBody({ page, markdown, contentPage }: { page: RoutePageId | 'notFound'; markdown?: RenderedMarkdown; contentPage?: RenderedContentPage }) {
  const body = (PAGE_BODIES as Readonly<Record<string, Body | undefined>>)[page];
  if (body !== undefined) return body({ ...(markdown === undefined ? {} : { markdown }) });
  if (!contentPage) throw new Error(`page ${page} needs its Markdown text`);
  return <ContentPage document={contentPage} />;
}

/**
 * A page's name in a breadcrumb trail: its title without the brand the titles end with.
 *
 * @example trailName('Über uns – MaskWise', 'MaskWise') // 'Über uns'
 */
function trailName(title: string, brand: string): string {
  const escaped = brand.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return title.replace(new RegExp(`\\s+[—–|-]\\s+${escaped}$`), '');
}

/**
 * Renders one page of one language into a complete HTML document string, in two passes: the body
 * first (the page in its layout, the deferred stylesheet and — if the page has islands — their
 * loader), then the document around it, whose head inlines the CSS rules that body uses and the
 * page's structured data. Returns the document and the problems of its structured data (none
 * when it is complete).
 */
export function renderPage({ context, path, file, canonicalPath, stylesheet, cssRules, loader, markdown, contentPage, headScript, socialImage }: PageToRender): { html: string; problems: Problem[] } {
  const { page, lang, t, site, routes } = context;
  const body = renderToStaticMarkup(
    <PageProvider value={{ ...context, islandsOnPage: new Set() }}>
      <Layout>
        <PageBody page={page} markdown={markdown} contentPage={contentPage} />
      </Layout>
      <BodyEnd stylesheet={stylesheet} loader={loader} />
    </PageProvider>,
  );
  const canonical = canonicalPath === null ? null : absoluteUrl(site.siteUrl, canonicalPath);
  const { title, description } = pageMeta(page, t, site.brand, contentPage);
  const social = socialMetaTags({
    lang,
    siteName: site.brand,
    title,
    description,
    url: canonical,
    image: { url: absoluteUrl(site.siteUrl, socialImage.url), ...SOCIAL_IMAGE, alt: socialImage.alt ?? `${site.brand}: ${t('hero.title')}` },
    alternateLangs: page === 'notFound' || canonical === null ? [] : routes.alternatesFor(page).map((a) => a.lang),
  });
  const home = page === 'home';
  const graph = structuredData({
    site,
    lang,
    homeUrl: absoluteUrl(site.siteUrl, pathFor('home', lang)),
    homeName: t('nav.home'),
    siteDescription: t('meta.home.description'),
    logoUrl: absoluteUrl(site.siteUrl, ICONS.any512),
    url: canonical ?? absoluteUrl(site.siteUrl, path),
    indexed: canonical !== null,
    title,
    description,
    breadcrumbName: home ? null : (contentPage?.title ?? trailName(title, site.brand)),
  });
  const html = renderToStaticMarkup(
    <Document
      lang={lang}
      title={title}
      description={description}
      canonical={canonical}
      alternates={page === 'notFound' || canonical === null ? [] : hreflangLinks(routes, page, site.siteUrl)}
      social={social}
      jsonLd={jsonForScript(graph)}
      criticalCss={siteOriginProperty(site.siteUrl) + criticalCss(cssRules, new Set([...classesInHtml(body), ...BODY_CLASS.split(' ')]))}
      headScript={headScript}
      body={body}
    />,
  );
  return { html: `<!DOCTYPE html>${html}`, problems: structuredDataProblems(graph, site.siteUrl, { lang, home }, file) };
}
