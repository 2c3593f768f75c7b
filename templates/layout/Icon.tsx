/** The icon shapes the templates use, as SVG path data on a 24×24 grid (stroke icons). */
const PATHS = {
  shield: 'M12 3l7 3v6c0 4.5-3 7.7-7 9-4-1.3-7-4.5-7-9V6l7-3z M9 12l2 2 4-4',
  scale: 'M12 3v18 M5 7h14 M5 7l-3 6a3 3 0 006 0L5 7z M19 7l-3 6a3 3 0 006 0l-3-6z M8 21h8',
  cloud: 'M7 18a4 4 0 01-.5-8A6 6 0 0118 9a4 4 0 01-1 9H7z',
  sliders: 'M4 6h10 M18 6h2 M4 12h4 M12 12h8 M4 18h12 M20 18h0 M14 4v4 M8 10v4 M16 16v4',
  layers: 'M12 3l9 5-9 5-9-5 9-5z M3 13l9 5 9-5 M3 17l9 5 9-5',
  database: 'M4 6c0-1.7 3.6-3 8-3s8 1.3 8 3-3.6 3-8 3-8-1.3-8-3z M4 6v12c0 1.7 3.6 3 8 3s8-1.3 8-3V6 M4 12c0 1.7 3.6 3 8 3s8-1.3 8-3',
  euro: 'M17 6a7 7 0 100 12 M4 10h9 M4 14h9',
  heart: 'M12 20s-7-4.4-7-10a4 4 0 017-2.6A4 4 0 0119 10c0 5.6-7 10-7 10z M9 11h2l1-2 1 4 1-2h1',
  mask: 'M3 7c3-1 6-1.5 9-1.5S18 6 21 7c0 6-3 10-9 11C6 17 3 13 3 7z M8 11h2 M14 11h2',
  trend: 'M3 17l6-6 4 4 8-8 M15 7h6v6',
  sync: 'M20 11a8 8 0 00-14.9-3M4 4v4h4 M4 13a8 8 0 0014.9 3M20 20v-4h-4',
  clipboard: 'M9 4h6v3H9z M7 5H5v16h14V5h-2 M8 12h8 M8 16h5',
  check: 'M5 12l4 4 10-10',
  globe: 'M12 3a9 9 0 100 18 9 9 0 000-18z M3 12h18 M12 3c2.5 2.5 3.5 5.5 3.5 9s-1 6.5-3.5 9c-2.5-2.5-3.5-5.5-3.5-9s1-6.5 3.5-9z',
  chevron: 'M6 9l6 6 6-6',
  menu: 'M4 7h16 M4 12h16 M4 17h16',
  close: 'M6 6l12 12 M18 6L6 18',
  mail: 'M3 6h18v12H3z M3 7l9 6 9-6',
  phone: 'M5 4h4l2 5-2.5 1.5a11 11 0 005 5L15 13l5 2v4a2 2 0 01-2 2A16 16 0 013 6a2 2 0 012-2z',
  pin: 'M12 21s-7-6.2-7-11a7 7 0 0114 0c0 4.8-7 11-7 11z M12 7.5a2.5 2.5 0 100 5 2.5 2.5 0 000-5z',
  arrow: 'M5 12h14 M13 6l6 6-6 6',
  external: 'M14 4h6v6 M20 4l-9 9 M18 14v6H4V6h6',
  users: 'M9 11a4 4 0 100-8 4 4 0 000 8z M2 21c0-4 3-6 7-6s7 2 7 6 M16 3.5a4 4 0 010 7.5 M22 21c0-3-1.5-5-4-5.7',
  building: 'M4 21V5l8-3 8 3v16 M9 21v-4h6v4 M8 8h2 M14 8h2 M8 12h2 M14 12h2 M2 21h20',
  landmark: 'M3 10l9-6 9 6 M5 10v8 M9.5 10v8 M14.5 10v8 M19 10v8 M3 21h18',
  terminal: 'M4 5h16v14H4z M8 10l3 2-3 2 M13 15h3',
  target: 'M12 3a9 9 0 100 18 9 9 0 000-18z M12 7a5 5 0 100 10 5 5 0 000-10z M12 11a1 1 0 100 2 1 1 0 000-2z',
  eye: 'M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12z M12 9a3 3 0 100 6 3 3 0 000-6z',
  flag: 'M5 21V4 M5 4h11l-2 4 2 4H5',
  send: 'M3 11l18-8-8 18-2-8-8-2z',
  telegram: 'M21 4L3 11l6 2 2 6 3-4 5 4 2-15z M9 13l8-6',
  linkedin: 'M4 9h3v11H4z M5.5 4a1.5 1.5 0 110 3 1.5 1.5 0 010-3z M10 9h3v1.6c.6-1 1.8-1.8 3.5-1.8 2.5 0 3.5 1.6 3.5 4.2v7H17v-6.3c0-1.4-.5-2.2-1.7-2.2S13 12.4 13 13.8V20h-3z',
} as const;

export type IconName = keyof typeof PATHS;

/** A decorative stroke icon; hidden from screen readers (the surrounding text carries the meaning). */
export function Icon({ name, className = 'h-6 w-6' }: { name: IconName; className?: string }) {
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
      <path d={PATHS[name]} />
    </svg>
  );
}
