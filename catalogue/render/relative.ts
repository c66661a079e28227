/** Relative dates in words; no imports, so the site's browser script shares it with the build. */

/** "in 3 months", "2 days ago", "today": how far a date is, in words. */
export function relativeDays(days: number): string {
  if (days === 0) return "today";
  const size = Math.abs(days);
  const [amount, unit] =
    size < 14
      ? [size, "day"]
      : size < 60
        ? [Math.round(size / 7), "week"]
        : size < 730
          ? [Math.round(size / 30.44), "month"]
          : [Math.round(size / 365.25), "year"];
  const phrase = `${amount} ${unit}${amount === 1 ? "" : "s"}`;
  return days > 0 ? `in ${phrase}` : `${phrase} ago`;
}
