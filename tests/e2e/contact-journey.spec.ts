import type { Locator, Page } from '@playwright/test';
import { expect, hydrateForm, rows, test, uniqueEmail, watchConsole } from './support/fixtures.ts';
import { captchaQuestion, fillContact } from './support/forms.ts';
import { mailsTo } from './support/mailbox.ts';
import { DEFAULT_PATHS } from '../../cli/paths.ts';
import { createTranslator } from '../../cli/site/i18n.ts';
import type { Lang } from '../../cli/site/languages.ts';
import { loadAllMessages } from '../../cli/site/locales.ts';
import { loadSiteConfig, placeholderValues } from '../../cli/site/site-config.ts';

// The contact journey as a visitor meets it (issue 23), on a phone and a laptop: what the form shows
// before any interaction, with JavaScript and without; the confirmation after a message is sent; the
// page a message sent without JavaScript came from, as the sales mail shows it; the country list.

const site = loadSiteConfig(DEFAULT_PATHS.contentDir);
const messages = loadAllMessages(DEFAULT_PATHS.contentDir);
const translate = (lang: Lang, key: string) => createTranslator(lang, messages, placeholderValues(site))(key);

/**
 * The boxes of the form that are drawn (a background other than the page's white) but hold nothing
 * to read or fill in: what a visitor sees as an empty grey box.
 */
function emptyBoxes(form: Locator): Promise<string[]> {
  return form.evaluate((root) =>
    [root, ...root.querySelectorAll('*')]
      .filter((element) => {
        const style = getComputedStyle(element);
        const drawn = style.backgroundColor !== 'rgba(0, 0, 0, 0)' && style.backgroundColor !== 'rgb(255, 255, 255)';
        return drawn && (element as HTMLElement).offsetHeight > 0 && style.visibility === 'visible';
      })
      .filter((element) => (element as HTMLElement).innerText.trim() === '' && !element.querySelector('input, select, textarea'))
      .map((element) => element.outerHTML.slice(0, 120)),
  );
}

/** The vertical gap between the message field and the privacy note below it: where the question's box sits. */
async function gapBelowMessage(page: Page): Promise<number> {
  const form = page.locator('form[data-form=contact]');
  const message = (await form.locator('[name=message]').boundingBox())!;
  const note = (await form.locator('p', { hasText: /Datenschutzerklärung/ }).boundingBox())!;
  return note.y - (message.y + message.height);
}

const REGIONAL_INDICATORS = /[\u{1F1E6}-\u{1F1FF}]/u;

for (const viewport of [{ width: 390, height: 844 }, { width: 1280, height: 720 }]) {
  test.describe(`the contact page at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('before any interaction, the page\'s reason is chosen and no empty box waits for the security question', async ({ page, url }) => {
      const problems = watchConsole(page);
      const islandModules: string[] = [];
      page.on('request', (request) => request.url().includes('/assets/islands/ContactForm') && islandModules.push(request.url()));
      await page.goto(url('/de/contact/demo#contact-form'));
      const form = page.locator('form[data-form=contact]');
      const reason = form.getByLabel(translate('de', 'contact.reason'));
      await expect(reason).toHaveValue('demo');
      await expect(reason.locator('option:checked')).toHaveText(translate('de', 'contact.reasonDemo'));
      expect(await emptyBoxes(form)).toEqual([]);
      // The island has not run: what the visitor sees is the page as served.
      expect(islandModules).toEqual([]);
      await expect(page.locator('[data-island=ContactForm]')).not.toHaveAttribute('data-hydrating', 'true');
      const gapBefore = await gapBelowMessage(page);

      // The first interaction runs the island, which asks the question at once; the reason stays.
      await hydrateForm(page, 'contact');
      const { a, b } = await captchaQuestion(page);
      await expect(form.getByLabel(`Sicherheitsabfrage: Was ergibt ${a} + ${b}?`)).toBeVisible();
      await expect(reason).toHaveValue('demo');
      expect(await gapBelowMessage(page)).toBeGreaterThan(gapBefore + 40);
      expect(await emptyBoxes(form)).toEqual([]);
      expect(problems).toEqual([]);
    });

    test('without JavaScript, the note says why there is no security question, in a box that is not empty', async ({ browser, url }) => {
      const context = await browser.newContext({ javaScriptEnabled: false, viewport });
      const page = await context.newPage();
      await page.goto(url('/de/contact/demo#contact-form'));
      const form = page.locator('form[data-form=contact]');
      // (Playwright's text locators skip <noscript>; what the visitor sees is its rendered text.)
      const note = form.locator('noscript p');
      await expect(note).toBeVisible();
      expect(await note.innerText()).toBe(translate('de', 'contact.captchaNoScript'));
      expect(await emptyBoxes(form)).toEqual([]);
      // The demo page's form has its reason without a script.
      await expect(form.getByLabel(translate('de', 'contact.reason'))).toHaveValue('demo');
      await context.close();
    });

    test('after a message is sent, the success toast and the what-happens-next note show, the note whole below the sticky header with the focus, the form emptied', async ({ page, url }) => {
      const problems = watchConsole(page);
      const email = uniqueEmail(`sent-${viewport.width}`);
      await page.goto(url('/fr/contact/demo'));
      await hydrateForm(page, 'contact');
      const form = await fillContact(page, { email, country: 'fr' });
      const { a, b } = await captchaQuestion(page);
      await form.locator('[name=answer]').fill(String(a + b));
      await form.getByRole('button', { name: translate('fr', 'contact.submit') }).click();

      const sent = page.locator('[data-contact=sent]');
      await expect(sent.getByRole('heading', { name: translate('fr', 'contact.sentTitle') })).toBeFocused();
      await expect(sent).toContainText(translate('fr', 'contact.sentText'));
      const header = (await page.locator('body > header, header').first().boundingBox())!;
      // The page may still be scrolling (smooth scrolling): wait until the box has come to rest in view.
      await expect.poll(async () => {
        const box = (await sent.boundingBox())!;
        return box.y >= header.y + header.height && box.y + box.height <= viewport.height;
      }).toBe(true);
      // The specification's success toast, the one toast on screen.
      await expect(page.locator('[data-toast]')).toHaveCount(1);
      await expect(page.locator('[data-toast=default]')).toContainText(translate('fr', 'contact.successTitle'));
      await expect(page.locator('[data-toast=default]')).toContainText(translate('fr', 'contact.successMessage'));
      await expect(form.locator('[name=firstName]')).toHaveValue('');
      await expect(form.locator('[name=intent]')).toHaveValue('demo');
      expect(rows('SELECT intent FROM contacts WHERE email = ?', email)).toEqual([{ intent: 'demo' }]);
      expect(problems).toEqual([]);
    });

    test('a message sent without JavaScript tells sales the page it was sent from, once the sender has confirmed it', async ({ browser, url }) => {
      const context = await browser.newContext({ javaScriptEnabled: false, viewport });
      const page = await context.newPage();
      const email = uniqueEmail(`nojs-source-${viewport.width}`);
      await page.goto(url('/nl/contact/sales#contact-form'));
      const form = await fillContact(page, { email, country: 'be' });
      await form.getByRole('button').click();
      expect(new URL(page.url()).pathname).toBe('/nl/contact/check-inbox');
      expect(rows('SELECT intent, source_page FROM contacts WHERE email = ?', email)).toEqual([{ intent: 'sales', source_page: '/nl/contact/sales' }]);

      await expect.poll(() => mailsTo(email).length, { timeout: 20_000 }).toBe(1);
      const link = new URL(mailsTo(email)[0]!.text.match(/https?:\/\/\S+\/nl\/contact\/confirm\?token=\S+/)![0]);
      await page.goto(url(`${link.pathname}${link.search}`));
      await page.locator('form[method=post]').getByRole('button').click();
      expect(new URL(page.url()).pathname).toBe('/nl/contact/confirmed');
      const salesMail = () => mailsTo('sales@example.com').find((mail) => mail.header('reply-to')?.toLowerCase().includes(email.toLowerCase()));
      await expect.poll(() => salesMail() !== undefined, { timeout: 20_000 }).toBe(true);
      // The line naming where the message was sent from ends with the page (a path, or its URL).
      expect(salesMail()!.text).toMatch(/\/nl\/contact\/sales\s*$/m);
      expect(salesMail()!.text).not.toMatch(/unknown|not recorded/);
      await context.close();
    });

    test('the country list names each country without a flag emoji, which shows as a box without an emoji font', async ({ page, url }) => {
      await page.goto(url('/de/contact'));
      const options = page.locator('select[name=country] option');
      const labels = (await options.allTextContents()).slice(1);
      expect(labels.length).toBeGreaterThan(240);
      expect(labels.filter((label) => REGIONAL_INDICATORS.test(label))).toEqual([]);
      await expect(page.locator('select[name=country] option[value=de]')).toHaveText('Deutschland');
      // Typing a country's first letters in the closed list selects it.
      await page.locator('select[name=country]').focus();
      await page.keyboard.type('Deutschl');
      await expect(page.locator('select[name=country]')).toHaveValue('de');
    });
  });
}
