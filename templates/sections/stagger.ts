/**
 * Animation delay classes: 0.1 s per index (spelled out so Tailwind finds every class in the
 * source). The motion itself (`rise`, a transform only: nothing is hidden while it waits) runs only
 * under `motion-safe`.
 */
const DELAYS = [
  '[animation-delay:0ms]',
  '[animation-delay:100ms]',
  '[animation-delay:200ms]',
  '[animation-delay:300ms]',
  '[animation-delay:400ms]',
  '[animation-delay:500ms]',
] as const;

/** The classes that move a card into place after `index` × 0.1 s (the specification's card stagger). */
export function staggerClass(index: number): string {
  return `motion-safe:animate-rise ${DELAYS[Math.min(index, DELAYS.length - 1)]}`;
}

/** The classes of the hero's part `part` (1, 2 or 3), which enter at 0.1, 0.2 and 0.3 s. */
export function heroPartClass(part: 1 | 2 | 3): string {
  return staggerClass(part);
}
