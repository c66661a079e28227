/**
 * How a calendar feed is offered for subscription (issue 126: "Subscribe" only downloaded
 * lifecycle.ics once): the feed's `webcal://` address, which a calendar app opens as a
 * subscription, the https address to paste into an app's "add by URL", and the steps of the common
 * calendar apps. The site's component (site/src/components/CalendarSubscribe.astro) and the text
 * host's pages (these blocks) say the same. Pure: the browser may load it.
 */
import { link, paragraph, type Block } from "../format/doc.ts";

/** The webcal:// address of an http(s) feed: the same address, which calendar apps open as a subscription. */
export const webcalUrl = (url: string): string => url.replace(/^https?:\/\//i, "webcal://");

/**
 * Subscribing by URL in the common calendar apps, as their makers' help pages describe it (Google
 * Calendar Help "Subscribe to someone's Google Calendar: use a link", Microsoft Support "Import or
 * subscribe to a calendar in Outlook.com or Outlook on the web", Apple's Calendar User Guide
 * "Subscribe to calendars on Mac", Mozilla Support "Adding a calendar" in Thunderbird).
 */
export const CALENDAR_APPS: readonly { readonly app: string; readonly steps: string }[] = [
  {
    app: "Google Calendar",
    steps:
      "on a computer (the phone apps cannot add one), the + beside Other calendars, then From URL: paste the https address, then Add calendar. Google refreshes it on its own schedule, within a day.",
  },
  {
    app: "Outlook",
    steps:
      "on the web or Outlook.com, Add calendar, then Subscribe from web: paste the https address, name it, then Import. In Outlook for Windows, Add Calendar, then From Internet.",
  },
  {
    app: "Apple Calendar",
    steps:
      "open the webcal link, or choose File, then New Calendar Subscription, paste the address and Subscribe; set Auto-refresh (every day is enough). On an iPhone, tap the webcal link.",
  },
  {
    app: "Thunderbird",
    steps:
      "File, then New, then Calendar, then On the Network: paste the address as the location, then Find Calendars and Subscribe.",
  },
];

/** What a feed is offered as: its subscription link, the address to copy, and the apps' steps. */
export interface CalendarFeed {
  /** The feed's address (absolute when the page knows its host's public URL; a path otherwise). */
  readonly url: string;
  /** What it holds, as a noun phrase ("the whole catalogue's lifecycle dates"). */
  readonly what: string;
}

/** Whether the feed's address is absolute, so that a webcal:// address can be made of it. */
const absolute = (url: string) => /^https?:\/\//i.test(url);

/**
 * The text host's blocks for a feed: subscribe with the webcal:// link, or add the https address by
 * URL, then the apps' steps. A feed known only by its path (a page rendered without its host's public
 * URL) is offered by that path, on the host that answers the page.
 */
export function calendarBlocks(feed: CalendarFeed): Block[] {
  const subscribe = absolute(feed.url)
    ? paragraph(
        `Subscribe to ${feed.what} in your calendar app: `,
        link(webcalUrl(feed.url), webcalUrl(feed.url)),
        ", or add it by URL: ",
        link(feed.url, feed.url),
        " (the calendar app then keeps it up to date; a download is a copy that never changes).",
      )
    : paragraph(
        `Subscribe to ${feed.what} in your calendar app: add this host's `,
        link(feed.url, feed.url),
        " by URL (the calendar app then keeps it up to date).",
      );
  return [subscribe, { kind: "list", items: CALENDAR_APPS.map(({ app, steps }) => [{ strong: app }, `: ${steps}`]) }];
}
