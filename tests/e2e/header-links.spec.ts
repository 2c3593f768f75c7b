/**
 * The header's and footer's labels say where they lead (issue 23): "Solutions" opens the
 * solutions page, which lists the industry pages; the newsletter button names the newsletter and
 * opens its section; no link promises a page the site does not have (the footer's "Pricing" led
 * to the contact form).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../cli/paths.ts';
import { LANGUAGES, type Lang } from '../../cli/site/languages.ts';
import { pathFor } from '../../cli/site/routes.ts';
import { expect, test, watchConsole } from './support/fixtures.ts';

const content = join(PROJECT_ROOT, 'content');
const site = JSON.parse(readFileSync(join(content, 'site.json'), 'utf8')) as { blogUrl: string };

/** A string of the language's locale file, by its dotted key. */
function text(lang: Lang, key: string): string {
  const messages = JSON.parse(readFileSync(join(content, 'locales', `${lang}.json`), 'utf8')) as Record<string, unknown>;
  return key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], messages) as string;
}

/** A page added as Markdown (`healthcare`, `accessibility`): its link text and URL in a language, from its front matter. */
function addedPage(name: string, lang: Lang): { label: string; path: string } {
  const source = readFileSync(join(content, 'pages', lang, `${name}.md`), 'utf8');
  const field = (name: string) => new RegExp(`^${name}: (.+)$`, 'm').exec(source)![1]!;
  return { label: field('navLabel'), path: lang === 'en' ? `/${field('slug')}` : `/${lang}/${field('slug')}` };
}

test.use({ viewport: { width: 1280, height: 900 } });

for (const lang of LANGUAGES) {
  test(`${lang}: the header's links lead to the pages their labels name; Solutions lists the healthcare page`, async ({ page, url }) => {
    const problems = watchConsole(page);
    await page.goto(url(pathFor('about', lang)));
    const nav = page.getByRole('navigation', { name: text(lang, 'nav.label') });
    const links = await nav.getByRole('link').evaluateAll((anchors) => anchors.map((a) => [a.textContent!.trim(), a.getAttribute('href')]));
    expect(links).toEqual([
      [text(lang, 'nav.solutions'), pathFor('solutions', lang)],
      [text(lang, 'nav.about'), pathFor('about', lang)],
      [expect.stringContaining(text(lang, 'nav.blog')), site.blogUrl],
      [text(lang, 'nav.contact'), pathFor('contact', lang)],
    ]);

    // The one filled action asks for a demo, naming the page it was on.
    const demo = page.locator('header').getByRole('link', { name: text(lang, 'nav.demo'), exact: true });
    await expect(demo).toHaveAttribute('href', `${pathFor('contactDemo', lang)}?from=${pathFor('about', lang)}#contact-form`);
    await expect(demo).toHaveCSS('background-color', await page.locator('main a[href*="/contact/sales"]').first().evaluate((a) => getComputedStyle(a).backgroundColor));

    // The newsletter link says "newsletter" in the language and opens the newsletter section.
    const newsletter = page.locator('header').getByRole('link', { name: text(lang, 'nav.signUp'), exact: true });
    expect(text(lang, 'nav.signUp')).toMatch(/newsletter|boletín|nieuwsbrief/i);
    await newsletter.click();
    await expect(page).toHaveURL(url(`${pathFor('home', lang)}#newsletter`));
    await expect(page.getByRole('heading', { name: text(lang, 'newsletter.title') })).toBeInViewport();

    // Solutions: a page of its own (highlighted there, not on the home page), listing healthcare.
    await expect(nav.getByRole('link', { name: text(lang, 'nav.solutions') })).not.toHaveAttribute('aria-current', 'page');
    await nav.getByRole('link', { name: text(lang, 'nav.solutions') }).click();
    await expect(page).toHaveURL(url(pathFor('solutions', lang)));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text(lang, 'solutions.title'));
    await expect(nav.getByRole('link', { name: text(lang, 'nav.solutions') })).toHaveAttribute('aria-current', 'page');
    const { label, path } = addedPage('healthcare', lang);
    await page.locator('main').getByRole('link', { name: label, exact: true }).click();
    await expect(page).toHaveURL(url(path));
    expect(problems).toEqual([]);
  });

  test(`${lang}: every link of the footer's quick links opens a page of the site, none of them a pricing page that does not exist`, async ({ page, request, url }) => {
    await page.goto(url(pathFor('home', lang)));
    const quickLinks = page.locator('footer').getByRole('heading', { name: text(lang, 'footer.quickLinks') }).locator('xpath=following-sibling::ul[1]').getByRole('link');
    // "Pricing" was a second link to the contact form; healthcare is listed on the solutions page now.
    // The accessibility statement is placed in the footer by its front matter (nav: footer).
    await expect(quickLinks).toHaveText([...['footer.home', 'footer.features', 'nav.solutions', 'footer.howItWorks', 'footer.contact'].map((key) => text(lang, key)), addedPage('accessibility', lang).label]);
    const hrefs = await quickLinks.evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href')!));
    expect(hrefs[2]).toBe(pathFor('solutions', lang));
    expect(hrefs[3]).toBe(pathFor('howItWorks', lang));
    for (const href of hrefs) expect((await request.get(url(href.replace(/[?#].*$/, '')))).status(), href).toBe(200);
  });
}
