import { CtaBanner } from '../sections/CtaBanner.tsx';
import { FeatureGrid } from '../sections/FeatureGrid.tsx';
import { Hero } from '../sections/Hero.tsx';
import { NewsletterSection } from '../sections/NewsletterSection.tsx';
import { ProductTour } from '../sections/ProductTour.tsx';
import { SupportStrip } from '../sections/SupportStrip.tsx';

/** The home page: hero, supported databases and regulations, product tour, feature grid, call to action, newsletter. */
export function HomePage() {
  return (
    <>
      <Hero />
      <SupportStrip />
      <ProductTour />
      <FeatureGrid />
      <div className="pt-16 sm:pt-24">
        <CtaBanner />
      </div>
      <NewsletterSection />
    </>
  );
}
