/**
 * A decorative arrow between two boxes of a diagram: across on wide screens, down (forward) or up
 * (back) when the boxes stack on small ones. The label beside it carries the meaning.
 */
export function FlowArrow({ back = false }: { back?: boolean }) {
  return (
    <svg
      viewBox="0 0 48 12"
      aria-hidden="true"
      focusable="false"
      className={`h-3 w-8 shrink-0 lg:w-12 ${back ? 'rotate-180 max-lg:-rotate-90' : 'max-lg:rotate-90'}`}
      fill="none"
      stroke="currentColor"
      strokeWidth={1.75}
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d="M1 6h44M40 1.5 45.5 6 40 10.5" />
    </svg>
  );
}
