import { CtaBanner } from '../sections/CtaBanner.tsx';
import { FeatureGrid } from '../sections/FeatureGrid.tsx';
import { Hero } from '../sections/Hero.tsx';
import { NewsletterSection } from '../sections/NewsletterSection.tsx';
import { Overview } from '../sections/Overview.tsx';

/**
 * The home page, as the specification lists it: hero with the demo button, overview (six cards and
 * the "why" block), feature grid (six cards), call-to-action banner with contact sales, newsletter.
 */
export function HomePage() {
  return (
    <>
      <Hero />
      <Overview />
      <FeatureGrid />
      <div className="pt-16 sm:pt-24">
        <CtaBanner />
      </div>
      <NewsletterSection />
    </>
  );
}
