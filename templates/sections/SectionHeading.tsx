/** A section's centred title and lead paragraph; `id` lets the section be labelled by its title. */
export function SectionHeading({ id, title, subtitle, inverted = false }: {
  id: string;
  title: string;
  subtitle: string;
  inverted?: boolean;
}) {
  return (
    <div className="mx-auto max-w-2xl text-center">
      <h2 id={id} className={`text-3xl font-bold tracking-tight text-balance sm:text-4xl ${inverted ? 'text-white' : 'text-navy-900'}`}>
        {title}
      </h2>
      <p className={`mt-4 text-lg leading-relaxed ${inverted ? 'text-slate-300' : 'text-slate-600'}`}>{subtitle}</p>
    </div>
  );
}
