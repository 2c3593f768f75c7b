// The browser entry of the ContactForm island: the loader imports it and calls hydrate(marker, props).
import { ContactForm } from '../components/ContactForm.tsx';
import { hydrator } from '../hydrate.tsx';

export const hydrate = hydrator(ContactForm);
