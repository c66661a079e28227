/** The public URLs test apps answer with (a leaf, so helpers that need them import no app). */
export const URLS = { apiUrl: "http://api.test", textUrl: "http://text.test" };
