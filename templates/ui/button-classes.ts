/**
 * The site's one primary button colour (white on teal-700, 5.4:1), for every filled action: the
 * header's demo button, the hero's and the banner's, the forms' submit buttons, the service pages'
 * main way on. A button's size and layout classes go beside it.
 *
 * @example <a className={`${PRIMARY_BUTTON} inline-flex rounded-lg px-5 py-3`}>…</a>
 */
export const PRIMARY_BUTTON = 'bg-teal-700 font-semibold text-white shadow-sm hover:bg-teal-800';
