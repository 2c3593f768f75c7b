import { IslandLoader } from '../islands/IslandLoader.tsx';

/**
 * The end of every page's body: the island loader (on pages with islands), then the full
 * stylesheet, downloaded at low priority but not applied (`media="not all"`, so it neither delays
 * the first render nor restyles the page on load) until the loader switches it on for the states
 * islands render.
 */
export function BodyEnd({ stylesheet, loader }: { stylesheet: string; loader: string }) {
  return (
    <>
      <IslandLoader script={loader} />
      <link rel="stylesheet" href={stylesheet} media="not all" data-island-css="" />
    </>
  );
}
