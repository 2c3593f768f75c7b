// Finds the island markers of the page and hydrates each when its trigger fires. Inlined at the
// end of the body, so it runs after the page has rendered and downloads nothing by itself.
{
  const EVENTS = ['pointerover', 'pointerdown', 'touchstart', 'focusin'];
  const load = (el) => {
    if (el.dataset.hydrating) return;
    el.dataset.hydrating = 'true';
    // The page's own CSS is inlined; the full stylesheet (already downloaded, not applied) adds
    // the states islands render (open menus, toasts, errors): apply it before the first one renders.
    for (const css of document.querySelectorAll('link[data-island-css]')) css.media = 'all';
    const props = JSON.parse(el.nextElementSibling?.textContent || '{}');
    import(el.dataset.islandSrc).then((module) => module.hydrate(el, props));
  };
  for (const el of document.querySelectorAll('[data-island]')) {
    if (el.dataset.hydrate === 'visible' && 'IntersectionObserver' in window) {
      const observer = new IntersectionObserver((entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          observer.disconnect();
          load(el);
        }
      }, { rootMargin: '200px' });
      observer.observe(el.firstElementChild || el);
    } else if (el.dataset.hydrate === 'interaction') {
      const start = () => {
        for (const type of EVENTS) el.removeEventListener(type, start);
        load(el);
      };
      for (const type of EVENTS) el.addEventListener(type, start, { passive: true });
    } else {
      // `load`, or `visible` where IntersectionObserver is missing: now.
      load(el);
    }
  }
}
