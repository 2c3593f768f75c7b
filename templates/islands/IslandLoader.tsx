import { usePage } from '../page-context.tsx';

/**
 * The island loader script, inlined as the last element of the body — only on pages that rendered
 * an island (rendered after them, it sees them in the page context): pages without islands load
 * no JavaScript at all.
 */
export function IslandLoader({ script }: { script: string }) {
  const { islandsOnPage } = usePage();
  if (islandsOnPage.size === 0) return null;
  return <script type="module" dangerouslySetInnerHTML={{ __html: script }} />;
}
