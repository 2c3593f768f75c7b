import { useEffect, type ComponentType, type ReactNode } from 'react';
import { hydrateRoot } from 'react-dom/client';

/** A form control's state as the visitor left it. */
type Typed = { control: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement; value: string; checked: boolean };

/** The form controls inside `element` that the visitor changed from their server-rendered state. */
function typedBeforeHydration(element: Element): Typed[] {
  const typed: Typed[] = [];
  for (const control of element.querySelectorAll<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>('input, select, textarea')) {
    const changed =
      control instanceof HTMLSelectElement
        ? [...control.options].some((o) => o.selected !== o.defaultSelected)
        : control instanceof HTMLInputElement && (control.type === 'checkbox' || control.type === 'radio')
          ? control.checked !== control.defaultChecked
          : control.value !== control.defaultValue;
    if (changed) typed.push({ control, value: control.value, checked: control instanceof HTMLInputElement && control.checked });
  }
  return typed;
}

/**
 * Gives React what the visitor typed before the island hydrated (a fast typist, a keyboard user
 * tabbing in at once): hydration keeps the text on screen but starts from the initial, empty
 * state, and the next render would wipe it. Each changed control is reported to React through the
 * events it listens to, as if typed now.
 */
function replay(typed: readonly Typed[]): void {
  for (const { control, value, checked } of typed) {
    const checkable = control instanceof HTMLInputElement && (control.type === 'checkbox' || control.type === 'radio');
    const property = checkable ? 'checked' : 'value';
    const current = checkable ? checked : value;
    // React tracks the last value it saw through the element's own setter; record a different one
    // there, then put the visitor's value back through the prototype's setter, so React sees a change.
    (control as unknown as Record<string, unknown>)[property] = checkable ? !checked : '';
    Object.getOwnPropertyDescriptor(Object.getPrototypeOf(control), property)?.set?.call(control, current);
    control.dispatchEvent(new Event(checkable ? 'click' : control instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
  }
}

function ReplayTyped({ typed, children }: { typed: readonly Typed[]; children: ReactNode }) {
  useEffect(() => replay(typed), [typed]);
  return children;
}

/**
 * Makes an island entry's `hydrate(el, props)`: attaches React to the server-rendered HTML inside
 * the marker element, keeping what the visitor already typed into its form controls. Used by
 * every module under `entries/`.
 */
export function hydrator<P extends object>(Component: ComponentType<P>) {
  return (element: Element, props: P) => {
    const typed = typedBeforeHydration(element);
    hydrateRoot(
      element,
      <ReplayTyped typed={typed}>
        <Component {...props} />
      </ReplayTyped>,
      // React's default onRecoverableError reports a hydration mismatch through reportError
      // (a page error the end-to-end fixtures fail on), so no handler of our own is shipped.
    );
  };
}
