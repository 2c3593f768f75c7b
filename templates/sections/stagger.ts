/**
 * Animation delay classes: 0.1 s per card index (spelled out so Tailwind finds every class in
 * the source). The animation itself only runs under `motion-safe`.
 */
const DELAYS = [
  '[animation-delay:0ms]',
  '[animation-delay:100ms]',
  '[animation-delay:200ms]',
  '[animation-delay:300ms]',
  '[animation-delay:400ms]',
  '[animation-delay:500ms]',
] as const;

/** The classes that fade a card in after `index` × 0.1 s. */
export function staggerClass(index: number): string {
  return `motion-safe:animate-fade-up ${DELAYS[Math.min(index, DELAYS.length - 1)]}`;
}
