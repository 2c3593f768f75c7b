import type { ComponentType } from 'react';
import { hydrateRoot } from 'react-dom/client';

/**
 * Makes an island entry's `hydrate(el, props)`: attaches React to the server-rendered HTML inside
 * the marker element. Used by every module under `entries/`.
 */
export function hydrator<P extends object>(Component: ComponentType<P>) {
  return (element: Element, props: P) => {
    hydrateRoot(element, <Component {...props} />, {
      onRecoverableError: (error) => console.error('island hydration:', error),
    });
  };
}
