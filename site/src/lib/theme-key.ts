/** Where the chosen theme is kept (localStorage): read before first paint and by the toggle. */
export const THEME_KEY = "csc-theme";
