/**
 * A decorative arrow between two boxes of a diagram: across in a wide figure, down (forward) or up
 * (back) when the boxes stack in a narrow one (the figure's width, not the screen's). The label
 * beside it carries the meaning.
 */
export function FlowArrow({ back = false }: { back?: boolean }) {
  return (
    <svg
      viewBox="0 0 48 12"
      aria-hidden="true"
      focusable="false"
      className={`h-3 w-8 shrink-0 @3xl:w-12 ${back ? 'rotate-180 @max-3xl:-rotate-90' : '@max-3xl:rotate-90'}`}
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
