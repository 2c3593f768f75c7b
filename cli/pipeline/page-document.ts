/**
 * A page as the build's parts pass it on: its route (a route of the table, or a language's 404
 * page) and the HTML document rendered from it with the string keys it read. The render stage
 * makes them and the build stage hands them to the build cache, which reads them through types of
 * its own (cache/page-cache.ts): the cache imports nothing of its parent stage.
 */
import type { Lang } from '../site/languages.ts';
import type { RenderedRoute, RoutePageId } from '../site/routes.ts';
import type { OutputDocument } from '../verify/built-output.ts';

/** A route of the table, or a language's 404 page. */
export interface PageRoute extends Omit<RenderedRoute, 'page'> {
  page: RoutePageId | 'notFound';
}

/** One rendered HTML document, with the page and language it is. */
export interface RenderedDocument extends OutputDocument {
  lang: Lang;
  page: RoutePageId | 'notFound';
  /** The string keys the page read (its translator was asked for), which the build cache keys it by. */
  strings: readonly string[];
}
