// The browser entry of the ContactForm island: the loader imports it and calls hydrate(marker, props).
import { ContactForm, type ContactFormProps } from '../components/ContactForm.tsx';
import { hydrator } from '../hydrate.tsx';

const hydrateForm = hydrator(ContactForm);

/** The countries as the server rendered them: every option of the select but the prompt. */
function countriesIn(element: Element): ContactFormProps['countries'] {
  return [...element.querySelectorAll<HTMLOptionElement>('select[name="country"] option')]
    .filter((option) => option.value !== '')
    .map((option) => ({ value: option.value, label: option.textContent ?? '' }));
}

// The island's JSON leaves the country list out (`fromMarkup` in sections/ContactForm.tsx).
export const hydrate = (element: Element, props: Omit<ContactFormProps, 'countries'>) =>
  hydrateForm(element, { ...props, countries: countriesIn(element) });
