/** What the output checks look at: the documents a build wrote, its sitemap and its files. */

/** One HTML document the build wrote. */
export interface OutputDocument {
  /** The URL path it is served at (`/de/about`; `/de/404` for a 404 page). */
  path: string;
  /** Its file inside the output folder (`de/about.html`). */
  file: string;
  html: string;
  /** For an alias such as `/aviso-legal`: the path of the page it repeats, which must be its canonical. */
  aliasOf?: string;
}

/** What the validator looks at: the written pages, the sitemap, and the files of the output folder. */
export interface BuiltOutput {
  /** The absolute site URL without trailing slash (`https://www.maskwise.io`). */
  siteUrl: string;
  documents: readonly OutputDocument[];
  /** The text of `sitemap.xml`. */
  sitemap: string;
  /** Whether a file (path relative to the output folder, no leading slash) was written. */
  exists: (file: string) => boolean;
  /**
   * For a build of some languages only: the URL paths of the pages the complete site has but this
   * build did not write. Links to them count as resolved; hreflang reciprocity with them is not checked.
   */
  unbuiltPages?: ReadonlySet<string>;
  /** The pixel size of a PNG the build wrote (path as for `exists`), for the social cards' stated sizes; undefined for no PNG. */
  imageSize?: (file: string) => { width: number; height: number } | undefined;
}
