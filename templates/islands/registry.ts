/**
 * The islands: components rendered on the server and hydrated in the browser. Each has an entry
 * module under `entries/` (bundled by Vite) and a hydration trigger:
 * - `interaction`: on the first pointer, touch or focus inside it (menus; plain disclosures until then);
 * - `visible`: when it scrolls near the viewport (forms).
 */
export const ISLANDS = {
  LanguageMenu: { entry: 'templates/islands/entries/LanguageMenu.tsx', hydrate: 'interaction' },
  MobileMenu: { entry: 'templates/islands/entries/MobileMenu.tsx', hydrate: 'interaction' },
  NewsletterForm: { entry: 'templates/islands/entries/NewsletterForm.tsx', hydrate: 'visible' },
  ContactForm: { entry: 'templates/islands/entries/ContactForm.tsx', hydrate: 'visible' },
} as const;

export type IslandName = keyof typeof ISLANDS;

/** Island name → the URL of its built entry module, e.g. `{ LanguageMenu: '/assets/islands/LanguageMenu.3f2a.js' }`. */
export type IslandAssets = Readonly<Record<IslandName, string>>;
