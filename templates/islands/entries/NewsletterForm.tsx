// The browser entry of the NewsletterForm island: the loader imports it and calls hydrate(marker, props).
import { NewsletterForm } from '../components/NewsletterForm.tsx';
import { hydrator } from '../hydrate.tsx';

export const hydrate = hydrator(NewsletterForm);
