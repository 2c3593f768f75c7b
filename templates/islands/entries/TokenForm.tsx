// The browser entry of the TokenForm island: the loader imports it and calls hydrate(marker, props)
// as soon as the page has rendered. It needs no React: it points the server-rendered form at the
// service and hands it the token, or says the link is not valid when the address has none.
import type { TokenFormProps } from '../components/TokenForm.tsx';

/** Points the form at the service's endpoint with the page's `?token=` as a hidden field. */
export function hydrate(element: Element, { endpoint }: Pick<TokenFormProps, 'endpoint'>): void {
  const form = element.querySelector('form');
  if (!form) return;
  const token = new URLSearchParams(location.search).get('token');
  if (!token) {
    form.hidden = true;
    element.querySelector<HTMLElement>('[data-token-missing]')?.removeAttribute('hidden');
    return;
  }
  const field = document.createElement('input');
  field.type = 'hidden';
  field.name = 'token';
  field.value = token;
  form.append(field);
  form.action = endpoint;
}
