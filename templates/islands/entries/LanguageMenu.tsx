// The browser entry of the LanguageMenu island: the loader imports it and calls hydrate(marker, props).
import { LanguageMenu } from '../components/LanguageMenu.tsx';
import { hydrator } from '../hydrate.tsx';

export const hydrate = hydrator(LanguageMenu);
