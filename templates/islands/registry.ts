/**
 * The islands: components rendered on the server and hydrated in the browser. Each has an entry
 * module under `entries/` (bundled by Vite) and a hydration trigger:
 * - `interaction`: on the first pointer, touch or focus inside it (menus, plain disclosures until
 *   then; forms, whose fields keep what was typed before);
 * - `visible`: when it scrolls near the viewport.
 * Forms wait for an interaction too: hydrating the contact form as the page loads cost the phone
 * a quarter of a second of blocked main thread (Lighthouse TBT) before the visitor did anything.
 */
export const ISLANDS = {
  LanguageMenu: { entry: 'templates/islands/entries/LanguageMenu.tsx', hydrate: 'interaction' },
  MobileMenu: { entry: 'templates/islands/entries/MobileMenu.tsx', hydrate: 'interaction' },
  NewsletterForm: { entry: 'templates/islands/entries/NewsletterForm.tsx', hydrate: 'interaction' },
  ContactForm: { entry: 'templates/islands/entries/ContactForm.tsx', hydrate: 'interaction' },
} as const;

export type IslandName = keyof typeof ISLANDS;

/** Island name → the URL of its built entry module, e.g. `{ LanguageMenu: '/assets/islands/LanguageMenu.3f2a.js' }`. */
export type IslandAssets = Readonly<Record<IslandName, string>>;
