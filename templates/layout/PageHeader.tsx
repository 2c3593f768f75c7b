import type { ReactNode } from 'react';

/** The title band at the top of inner pages: white on dark blue, and on paper dark on white without the band's padding. */
export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="bg-navy-950 text-white">
      <div className="mx-auto max-w-6xl px-4 py-14 sm:px-6 sm:py-20 lg:px-8 print:px-0 print:pt-0 print:pb-6">
        <h1 className="max-w-3xl text-4xl font-bold tracking-tight text-balance sm:text-5xl">{title}</h1>
        {children && <div className="mt-5 max-w-3xl text-lg leading-relaxed text-slate-300">{children}</div>}
      </div>
    </div>
  );
}
