/**
 * "127 services." or "Showing 12 of 127 services.": the count line of the filtered views. Pages
 * render the first one (so the line is in place from the first paint), scripts/view.ts the rest.
 */
export const shownText = (shown: number, total: number, noun: string): string =>
  shown === total ? `${total} ${noun}.` : `Showing ${shown} of ${total} ${noun}.`;
