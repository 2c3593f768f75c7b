import type { ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { usePage } from '../page-context.tsx';
import { ISLANDS, type IslandName } from './registry.ts';

/**
 * Serialises props as JSON that is safe inside a `<script>` element: `<`, `>`, `&` and the
 * line separators are written as escapes, so no value can close the element or start a comment.
 */
function serializeProps(props: unknown): string {
  return JSON.stringify(props)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * Marks a component as an island: its HTML is rendered with `renderToString` (so `hydrateRoot`
 * finds exactly what it renders) inside a `display: contents` marker naming the island, its
 * module and its hydration trigger, and its props are written beside it as JSON.
 *
 * `fromMarkup` names props that are rendered but left out of the JSON because the island's entry
 * reads them back from its own HTML (the contact form's 249 countries are already the options of
 * its select; repeating them as JSON added 3.7 KB gzip to the page).
 */
export function Island<P extends object>({
  name,
  component: Component,
  props,
  fromMarkup = [],
}: {
  name: IslandName;
  component: ComponentType<P>;
  props: P;
  fromMarkup?: ReadonlyArray<keyof P>;
}) {
  const { islands, islandsOnPage } = usePage();
  islandsOnPage.add(name);
  const serialized = Object.fromEntries(Object.entries(props).filter(([key]) => !fromMarkup.includes(key as keyof P)));
  return (
    <>
      <div
        className="contents"
        data-island={name}
        data-hydrate={ISLANDS[name].hydrate}
        data-island-src={islands[name]}
        dangerouslySetInnerHTML={{ __html: renderToString(<Component {...props} />) }}
      />
      <script type="application/json" data-island-props={name} dangerouslySetInnerHTML={{ __html: serializeProps(serialized) }} />
    </>
  );
}
