import { useSignal } from '@preact/signals-react';
import { useEffect, useRef } from 'react';

/** Menu timings from the spec: hover opens after 200 ms, closes 150 ms after the pointer leaves, and
 * within 300 ms of a close (the skip delay) hovering again opens at once. */
const MENU_TIMINGS = { openDelayMs: 200, closeDelayMs: 150, skipDelayMs: 300 } as const;

/**
 * The state and handlers of a disclosure menu after hydration: `enhanced` turns true once the
 * server's `<details>` has been replaced by a button and panel; `open` is the panel's state.
 * Escape and a click outside close it; Escape returns focus to the button. With `hover`,
 * a mouse pointer opens and closes it with the menu timings.
 */
export function useDisclosure({ hover = false }: { hover?: boolean } = {}) {
  const open = useSignal(false);
  const enhanced = useSignal(false);
  const rootRef = useRef<HTMLDivElement & HTMLDetailsElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const lastClosed = useRef(0);
  const hadFocus = useRef(false);

  const schedule = (next: boolean, delay: number) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => (open.value = next), delay);
  };

  useEffect(() => {
    // Carry over what the visitor did with the plain disclosure before the script arrived.
    const details = rootRef.current;
    open.value = Boolean(details?.open);
    hadFocus.current = Boolean(details?.contains(document.activeElement));
    enhanced.value = true;
    // The hover that loaded this script happened before it could listen: honour it now.
    if (hover && details?.matches(':hover') && !open.value) schedule(true, MENU_TIMINGS.openDelayMs);
  }, []);

  // The value this render shows: the effect below must not see the signal's newer value before
  // the button it would focus exists (that lost the keyboard focus on hydration).
  const renderedEnhanced = enhanced.value;
  useEffect(() => {
    if (!renderedEnhanced) return;
    if (hadFocus.current) {
      hadFocus.current = false;
      buttonRef.current?.focus();
    }
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && open.value) {
        open.value = false;
        buttonRef.current?.focus();
      }
    };
    const onPointer = (event: PointerEvent) => {
      if (open.value && !rootRef.current?.contains(event.target as Node)) open.value = false;
    };
    const onFocus = (event: FocusEvent) => {
      if (open.value && !rootRef.current?.contains(event.target as Node)) open.value = false;
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('focusin', onFocus);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('focusin', onFocus);
    };
  }, [renderedEnhanced]);

  useEffect(() => {
    if (!open.value) lastClosed.current = Date.now();
  }, [open.value]);

  const hoverHandlers = hover
    ? {
        onPointerEnter: (event: React.PointerEvent) => {
          if (event.pointerType !== 'mouse') return;
          const skip = Date.now() - lastClosed.current < MENU_TIMINGS.skipDelayMs;
          schedule(true, skip ? 0 : MENU_TIMINGS.openDelayMs);
        },
        onPointerLeave: (event: React.PointerEvent) => {
          if (event.pointerType === 'mouse') schedule(false, MENU_TIMINGS.closeDelayMs);
        },
      }
    : {};

  return {
    open,
    enhanced,
    rootRef,
    buttonRef,
    hoverHandlers,
    toggle: () => {
      clearTimeout(timer.current);
      open.value = !open.value;
    },
  };
}
