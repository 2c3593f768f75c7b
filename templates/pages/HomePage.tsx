import { CtaBanner } from '../sections/CtaBanner.tsx';
import { FeatureGrid } from '../sections/FeatureGrid.tsx';
import { Hero } from '../sections/Hero.tsx';
import { NewsletterSection } from '../sections/NewsletterSection.tsx';
import { Overview } from '../sections/Overview.tsx';

/** The home page: hero, overview, feature grid, call to action, newsletter. */
export function HomePage() {
  return (
    <>
      <Hero />
      <Overview />
      <FeatureGrid />
      <CtaBanner />
      <NewsletterSection />
    </>
  );
}
