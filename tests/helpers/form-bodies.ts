/**
 * Valid bodies of the two forms, as the site's islands post them (JSON), for the suites that
 * drive real ingest processes: `contactBody('ana@example.com', 'Hello', { token, answer: 7 })`.
 */

/** A valid contact message from `email`, answering `captcha`. */
export function contactBody(email: string, message: string, captcha: { token: string; answer: number }): Record<string, unknown> {
  return { firstName: 'Ana', lastName: 'Visitor', email, phone: '+34 600 000 000', companyName: 'Acme Datos', country: 'es', message, lang: 'es', captcha };
}

/** A valid newsletter signup of `email` (privacy consent given, marketing declined). */
export function signupBody(email: string, name = 'Ana Load'): Record<string, unknown> {
  return { name, email, privacyConsent: true, marketingConsent: false, lang: 'es' };
}
