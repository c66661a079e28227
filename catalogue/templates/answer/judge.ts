/**
 * The gate's weighing of the findings (findings.ts), one per resource instance: each accepted or
 * not by the suppressions in force — the repository's baseline, inline comments beside the
 * resource, rules the configuration or an option skips — and the rest failing at or above the
 * severity the gate fails on (docs/ci-check.md, "Baseline" and "Suppressions").
 *
 * A suppression accepts a finding when its rule is the finding's and each of its item, resource
 * and file, when given, is the finding's; an inline comment accepts the findings of the resource
 * block it sits in or above. An entry past its expiry accepts nothing and is reported, beside the
 * findings it would have accepted; a baseline entry that accepts nothing any more is reported by
 * name (stale). Pure: places and suppressions come from the caller.
 */
import type { Finding, FindingRule } from "./findings.ts";

/** Where a finding stands in the repository: its file, and the line of its resource when found. */
export interface Place {
  /** The file's path relative to the repository's root (the working folder), with forward slashes. */
  readonly file: string;
  /** 1-based line and column (UTF-16 code units) of the resource's name, when found. */
  readonly line?: number;
  readonly column?: number;
  /** The first line of the block declaring the resource (where inline suppressions attach). */
  readonly block?: number;
}

/** A finding and where it stands (none: the checked file itself). */
export interface PlacedFinding extends Finding {
  readonly place?: Place;
}

/** Where a suppression is kept. */
export type SuppressionSource =
  /** An entry of the baseline file (the default). */
  | { readonly kind: "baseline"; readonly path?: string }
  /** A `cloud-catalogue:ignore` comment at `line` of `file`, for the block starting at `block`. */
  | { readonly kind: "inline"; readonly file: string; readonly line: number; readonly block: number }
  /** A rule skipped, or not selected, by the configuration file or a command-line option. */
  | { readonly kind: "config"; readonly path: string }
  | { readonly kind: "option"; readonly option: string };

/**
 * A suppression: findings of `rule` accepted, narrowed to an item, a resource and a file when
 * given, with the reason, until the end of `expires` (UTC) when given. `cloud-catalogue check
 * --write-baseline` writes one per finding; people write them by hand, or as inline comments.
 */
export interface Suppression {
  readonly rule: FindingRule;
  /** The finding's item: a resource type, an API, an implicit need or a service. */
  readonly item?: string;
  /** One resource instance: a logical id, resource name or plan address. */
  readonly resource?: string;
  /** The checked file or folder as given to the check, or a file (or folder) holding the resource. */
  readonly file?: string;
  readonly reason: string;
  /** The last day it applies (YYYY-MM-DD); after it, the findings count again and the entry is reported. */
  readonly expires?: string;
  /** Where it is kept (absent: a baseline entry). */
  readonly source?: SuppressionSource;
}

export interface JudgedFinding {
  readonly finding: PlacedFinding;
  /** The suppressions in force that accept it; empty: it counts (new, against a baseline). */
  readonly acceptedBy: readonly Suppression[];
  /** Expired suppressions that would accept it: said beside it, never applied. */
  readonly expiredBy: readonly Suppression[];
}

export interface Judgement {
  readonly findings: readonly JudgedFinding[];
  /** Findings no suppression accepts: those the gate weighs. */
  readonly counted: readonly PlacedFinding[];
  /** Counted findings at or above the severity the gate fails on. */
  readonly failing: readonly PlacedFinding[];
  /** Suppressions past their expiry: applied to nothing, reported. */
  readonly expired: readonly Suppression[];
  /** Baseline entries in force that accept no finding: what they accepted is gone (stale). */
  readonly unmatched: readonly Suppression[];
  /** 0: nothing fails; 1: a counted finding at or above the threshold. */
  readonly exitCode: 0 | 1;
}

export interface JudgeOptions {
  /** The severity the gate fails on: error (default) or warning (every finding). */
  readonly failOn?: Finding["level"];
  readonly suppressions?: readonly Suppression[];
  /** The checked file or folder, as baseline entries name it. */
  readonly file?: string;
  /** Today (YYYY-MM-DD, UTC): entries that expired before it are not applied. */
  readonly today: string;
}

const isBaseline = (entry: Suppression) => entry.source === undefined || entry.source.kind === "baseline";

/** Whether an entry's file names the checked path, or the finding's file or a folder holding it. */
function fileMatches(entry: string, checked: string | undefined, place: Place | undefined): boolean {
  if (entry === checked) return true;
  if (!place) return false;
  return entry === "." || place.file === entry || place.file.startsWith(`${entry.replace(/\/+$/, "")}/`);
}

/**
 * The entries that may accept a finding, in their order: those of its rule naming its resource or
 * none. A baseline of 2,000 entries against 2,000 findings is then a lookup each, not 4 million tests.
 */
function candidates(entries: readonly Suppression[]): (finding: Finding) => Suppression[] {
  const byRule = new Map<
    string,
    { order: Map<Suppression, number>; any: Suppression[]; named: Map<string, Suppression[]> }
  >();
  entries.forEach((entry, at) => {
    let rule = byRule.get(entry.rule);
    if (!rule) byRule.set(entry.rule, (rule = { order: new Map(), any: [], named: new Map() }));
    rule.order.set(entry, at);
    if (entry.resource === undefined) rule.any.push(entry);
    else rule.named.set(entry.resource, [...(rule.named.get(entry.resource) ?? []), entry]);
  });
  return (finding) => {
    const rule = byRule.get(finding.rule);
    if (!rule) return [];
    const named = finding.resource === undefined ? [] : (rule.named.get(finding.resource) ?? []);
    if (named.length === 0) return rule.any;
    return [...rule.any, ...named].sort((a, b) => rule.order.get(a)! - rule.order.get(b)!);
  };
}

/** Whether a suppression accepts a finding (its expiry aside). */
export function accepts(entry: Suppression, finding: PlacedFinding, checked: string | undefined): boolean {
  if (entry.rule !== finding.rule) return false;
  if (entry.item !== undefined && entry.item !== finding.item) return false;
  if (entry.resource !== undefined && entry.resource !== finding.resource) return false;
  if (entry.file !== undefined && !fileMatches(entry.file, checked, finding.place)) return false;
  if (entry.source?.kind === "inline") {
    const { place } = finding;
    return place?.block !== undefined && place.file === entry.source.file && place.block === entry.source.block;
  }
  return true;
}

/**
 * The findings weighed as the gate does: each accepted by the suppressions in force that accept it,
 * the rest counted, and failing when at or above the threshold.
 */
export function judge(findings: readonly PlacedFinding[], options: JudgeOptions): Judgement {
  const entries = options.suppressions ?? [];
  const expired = entries.filter((entry) => entry.expires !== undefined && entry.expires < options.today);
  const lapsed = new Set(expired);
  const inForce = entries.filter((entry) => !lapsed.has(entry));
  const used = new Set<Suppression>();
  const inForceOf = candidates(inForce);
  const expiredOf = candidates(expired);
  const judged = findings.map((finding): JudgedFinding => {
    const acceptedBy = inForceOf(finding).filter((entry) => accepts(entry, finding, options.file));
    for (const entry of acceptedBy) used.add(entry);
    return {
      finding,
      acceptedBy,
      expiredBy: expiredOf(finding).filter((entry) => accepts(entry, finding, options.file)),
    };
  });
  const counted = judged.filter((entry) => entry.acceptedBy.length === 0).map((entry) => entry.finding);
  const failing = counted.filter((finding) => options.failOn === "warning" || finding.level === "error");
  return {
    findings: judged,
    counted,
    failing,
    expired,
    unmatched: inForce.filter((entry) => isBaseline(entry) && !used.has(entry)),
    exitCode: failing.length > 0 ? 1 : 0,
  };
}

/** A baseline accepting these findings: an entry per finding, naming its resource and the checked file or folder. */
export function baselineOf(findings: readonly Finding[], file: string, today: string): Suppression[] {
  return findings.map((finding) => ({
    rule: finding.rule,
    item: finding.item,
    ...(finding.resource === undefined ? {} : { resource: finding.resource }),
    file,
    reason: `in the baseline written ${today}`,
  }));
}

/** An entry as people read it: its rule, item, resource and file. */
export const entryText = (entry: Suppression): string =>
  [entry.rule, entry.item, entry.resource, entry.file].filter((part) => part !== undefined).join(" ");

/** Where a suppression is kept, in words: "the baseline", "main.tf:12", ".cloud-catalogue.yaml", "--skip-rule". */
export function sourceText(entry: Suppression): string {
  const source = entry.source;
  if (!source || source.kind === "baseline") return source?.path ? `the baseline ${source.path}` : "the baseline";
  if (source.kind === "inline") return `${source.file}:${source.line}`;
  return source.kind === "config" ? source.path : source.option;
}
