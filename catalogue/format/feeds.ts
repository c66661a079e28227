/**
 * The two feed formats, as small serializers: Atom 1.0 (RFC 4287) and the pieces of iCalendar
 * (RFC 5545) the calendars need. Tests read their output with maintained parsers (ical.js,
 * @rowanmanning/feed-parser).
 */
import type { PublicUrls } from "../base/urls.ts";
import { stripControl } from "./doc.ts";
import { escapeHtml } from "./html.ts";

/** Atom's text and attributes: XML reads the HTML escape's character references. */
const xml = escapeHtml;

/** The authority of our tag: URIs (RFC 4151): the text host's name, which the deployment controls. */
export const tagAuthority = (urls: PublicUrls): string => new URL(urls.textUrl).hostname;
/** The year the feeds began; part of every tag: URI, so ids never change. */
const TAG_YEAR = "2026";
export const tagUri = (urls: PublicUrls, specific: string) => `tag:${tagAuthority(urls)},${TAG_YEAR}:${specific}`;

export interface AtomEntry {
  readonly id: string;
  readonly title: string;
  /** ISO 8601 instant. */
  readonly updated: string;
  readonly link: string;
  readonly related?: string | undefined;
  readonly category?: string | undefined;
  readonly summary: string;
}

export interface AtomFeed {
  readonly id: string;
  readonly title: string;
  readonly subtitle: string;
  readonly self: string;
  readonly alternate: string;
  readonly author: { readonly name: string; readonly uri: string };
  readonly entries: readonly AtomEntry[];
  /** When no entry carries a date. */
  readonly fallbackUpdated: string;
}

/** An Atom 1.0 document; `updated` is the newest entry's, so the same entries give the same bytes. */
export function renderAtom(feed: AtomFeed): string {
  const updated = feed.entries.reduce((newest, entry) => (entry.updated > newest ? entry.updated : newest), "");
  const lines = [
    `<?xml version="1.0" encoding="utf-8"?>`,
    `<feed xmlns="http://www.w3.org/2005/Atom">`,
    `  <id>${xml(feed.id)}</id>`,
    `  <title>${xml(feed.title)}</title>`,
    `  <subtitle>${xml(feed.subtitle)}</subtitle>`,
    `  <updated>${updated || feed.fallbackUpdated}</updated>`,
    `  <link rel="self" type="application/atom+xml" href="${xml(feed.self)}"/>`,
    `  <link rel="alternate" href="${xml(feed.alternate)}"/>`,
    `  <author><name>${xml(feed.author.name)}</name><uri>${xml(feed.author.uri)}</uri></author>`,
  ];
  for (const entry of feed.entries) {
    lines.push(
      `  <entry>`,
      `    <id>${xml(entry.id)}</id>`,
      `    <title>${xml(entry.title)}</title>`,
      `    <updated>${entry.updated}</updated>`,
      `    <link rel="alternate" href="${xml(entry.link)}"/>`,
      ...(entry.related ? [`    <link rel="related" href="${xml(entry.related)}"/>`] : []),
      ...(entry.category ? [`    <category term="${xml(entry.category)}"/>`] : []),
      `    <summary type="text">${xml(entry.summary)}</summary>`,
      `  </entry>`,
    );
  }
  lines.push(`</feed>`, ``);
  return lines.join("\n");
}

/** TEXT value escaping (RFC 5545 §3.3.11). */
export const icsText = (text: string) =>
  stripControl(text).replace(/\\/g, "\\\\").replace(/;/g, "\\;").replace(/,/g, "\\,").replace(/\r?\n/g, "\\n");

/** The octets a character takes in UTF-8 (no Buffer: the browser may load this module). */
const utf8Octets = (char: string): number => {
  const code = char.codePointAt(0)!;
  return code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
};

/**
 * Folds a content line at 75 octets (RFC 5545 §3.1): continuation lines start with one space, and
 * a UTF-8 sequence is never split.
 */
export function foldLine(line: string): string {
  const parts: string[] = [];
  let current = "";
  let octets = 0;
  for (const char of line) {
    const size = utf8Octets(char);
    if (octets + size > 75) {
      parts.push(current);
      current = " ";
      octets = 1;
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join("\r\n");
}

/**
 * A display reminder (VALARM, RFC 5545 §3.6.6) `days` before its event's start: ACTION:DISPLAY
 * requires DESCRIPTION and TRIGGER, a duration relative to DTSTART (§3.8.6.3; 0 days is PT0S, the
 * start itself). The lines go inside a VEVENT, unfolded: the calendar folds every line.
 */
export const icsAlarm = (days: number, description: string): string[] => [
  "BEGIN:VALARM",
  "ACTION:DISPLAY",
  `DESCRIPTION:${icsText(description)}`,
  `TRIGGER:${days === 0 ? "PT0S" : `-P${days}D`}`,
  "END:VALARM",
];

/** A UTC date-time in the iCalendar basic form: 20261123T134649Z. */
export const icsInstant = (iso: string) => iso.replace(/\.\d+Z$/, "Z").replace(/[-:]/g, "");

/** Midnight UTC of a day, as Atom dates it. */
export const atomInstant = (day: string) => `${day}T00:00:00Z`;

/**
 * `change` applied to an Atom document's text outside its `<id>` elements: ids are permanent
 * (RFC 4287 §4.2.6), so a mirror that rewrites the origin's URLs must leave them as they are.
 */
export function rewriteAtom(text: string, change: (part: string) => string): string {
  return text
    .split(/(<id>[^<]*<\/id>)/)
    .map((part, index) => (index % 2 === 1 ? part : change(part)))
    .join("");
}

/**
 * `change` applied to each unfolded content line of an iCalendar text but its UIDs (permanent,
 * RFC 5545 §3.8.4.7), every line folded again, UIDs too: a URL may span a fold, a longer one needs
 * new folds, and a UID over 75 octets was folded in the built file (a server on another port once
 * returned UIDs unfolded, joining lines RFC 5545 §3.1 requires folded).
 */
export function rewriteCalendar(text: string, change: (line: string) => string): string {
  return text
    .replace(/\r\n[ \t]/g, "")
    .split("\r\n")
    .map((line) => (line === "" ? line : foldLine(/^UID[;:]/i.test(line) ? line : change(line))))
    .join("\r\n");
}
