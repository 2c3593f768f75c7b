import { expect, type Locator, type Page } from '@playwright/test';

/** Fills the newsletter form of the page (name, email, privacy consent) and returns it. */
export async function fillNewsletter(page: Page, name: string, email: string): Promise<Locator> {
  const form = page.locator('form[data-form=newsletter]');
  await form.locator('input[name=name]').fill(name);
  await form.locator('input[name=email]').fill(email);
  await form.locator('input[name=privacyConsent]').check();
  return form;
}

/** What the contact form helpers type; the defaults are a plausible request. */
export interface ContactFields {
  firstName?: string;
  lastName?: string;
  email: string;
  country: string;
  message?: string;
}

/** Fills the contact form of the page (all but the captcha answer) and returns it. */
export async function fillContact(page: Page, fields: ContactFields): Promise<Locator> {
  const form = page.locator('form[data-form=contact]');
  await form.locator('[name=firstName]').fill(fields.firstName ?? 'Marie');
  await form.locator('[name=lastName]').fill(fields.lastName ?? 'Curie');
  await form.locator('[name=email]').fill(fields.email);
  await form.locator('[name=country]').selectOption(fields.country);
  await form.locator('[name=message]').fill(fields.message ?? 'We need to mask patient records in MariaDB before sharing them with our test team.');
  return form;
}

/** The two numbers of the captcha question the page shows, once it has fetched one. */
export async function captchaQuestion(page: Page): Promise<{ a: number; b: number }> {
  const box = page.locator('[data-captcha]');
  await expect(box).not.toHaveAttribute('data-captcha', 'pending');
  const [a, b] = (await box.getAttribute('data-captcha'))!.split('+').map(Number);
  return { a: a!, b: b! };
}
