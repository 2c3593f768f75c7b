import * as PATHS from './icon-paths.ts';

export type IconName = keyof typeof PATHS;

/** A decorative stroke icon drawn from SVG path data; hidden from screen readers (the text carries the meaning). */
export function SvgIcon({ d, className = 'h-6 w-6' }: { d: string; className?: string }) {
  return (
    <svg
      className={className}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.75}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={d} />
    </svg>
  );
}

/** A decorative icon by name, for server-rendered templates (islands use `SvgIcon` with the paths they need). */
export function Icon({ name, className }: { name: IconName; className?: string }) {
  return <SvgIcon d={PATHS[name]} className={className} />;
}
