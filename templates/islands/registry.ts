import { fileURLToPath } from 'node:url';

/**
 * The islands: components rendered on the server and hydrated in the browser. Each has an entry
 * module under `entries/` (bundled by Vite; its URL is resolved from this module, so the registry
 * and its entries move together) and a hydration trigger:
 * - `interaction`: on the first pointer, touch or focus inside it (menus, plain disclosures until
 *   then; forms, whose fields keep what was typed before);
 * - `visible`: when it scrolls near the viewport;
 * - `load`: as soon as the page has rendered (the token form, which must point its form at the
 *   service before the visitor presses its button; its script is a few hundred bytes, no React).
 * Forms wait for an interaction too: hydrating the contact form as the page loads cost the phone
 * a quarter of a second of blocked main thread (Lighthouse TBT) before the visitor did anything.
 */
export const ISLANDS = {
  LanguageMenu: { entry: new URL('./entries/LanguageMenu.tsx', import.meta.url), hydrate: 'interaction' },
  MobileMenu: { entry: new URL('./entries/MobileMenu.tsx', import.meta.url), hydrate: 'interaction' },
  NewsletterForm: { entry: new URL('./entries/NewsletterForm.tsx', import.meta.url), hydrate: 'interaction' },
  ContactForm: { entry: new URL('./entries/ContactForm.tsx', import.meta.url), hydrate: 'interaction' },
  TokenForm: { entry: new URL('./entries/TokenForm.tsx', import.meta.url), hydrate: 'load' },
} as const;

export type IslandName = keyof typeof ISLANDS;

/** Island name → the URL of its built entry module, e.g. `{ LanguageMenu: '/assets/islands/LanguageMenu.3f2a.js' }`. */
export type IslandAssets = Readonly<Record<IslandName, string>>;

/** The source file of the script that finds the island markers of a page and hydrates each. */
export const LOADER_FILE = new URL('./loader.js', import.meta.url);

/** The entry module files of every island, for the bundler and the build cache. */
export function islandEntryFiles(): string[] {
  return Object.values(ISLANDS).map((island) => fileURLToPath(island.entry));
}
