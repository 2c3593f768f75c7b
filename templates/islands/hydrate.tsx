import type { ComponentType } from 'react';
import { hydrateRoot } from 'react-dom/client';

/**
 * Makes an island entry's `hydrate(el, props)`: attaches React to the server-rendered HTML inside
 * the marker element. Used by every module under `entries/`.
 *
 * What the visitor types before, during or after hydration stays theirs: the forms' controls are
 * uncontrolled (`defaultValue`, `defaultChecked`), React hydrates them without writing their
 * values, and the islands read the values from the DOM when they need them (`FormData` on submit).
 * No value is copied into React's state, so there is no moment at which a keystroke could be
 * overwritten by an older copy.
 */
export function hydrator<P extends object>(Component: ComponentType<P>) {
  return (element: Element, props: P) => {
    // React's default onRecoverableError reports a hydration mismatch through reportError
    // (a page error the end-to-end fixtures fail on), so no handler of our own is shipped.
    hydrateRoot(element, <Component {...props} />);
  };
}
