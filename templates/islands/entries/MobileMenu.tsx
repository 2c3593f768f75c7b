// The browser entry of the MobileMenu island: the loader imports it and calls hydrate(marker, props).
import { MobileMenu } from '../components/MobileMenu.tsx';
import { hydrator } from '../hydrate.tsx';

export const hydrate = hydrator(MobileMenu);
