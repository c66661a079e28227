/**
 * The kinds of service a query may name: equivalence groups and categories by their names, and
 * tags that three or more providers use.
 *
 * This module must stay free of Node APIs: the site bundles it.
 */
import { GENERIC_WORDS, type SearchData } from "./data.ts";
import { norm } from "./words.ts";

/** The kind of service a query names, if any (`named`), by equivalence group, category or shared tag. */
export interface KindMatch {
  readonly named: boolean;
  /** Whether a group's or category's name (not only a tag) has the words. */
  readonly byKindName: boolean;
  /** Whether the words are a kind's whole name or tag ("serverless functions", not "pub sub" of "Pub/sub messaging"). */
  readonly whole: boolean;
  readonly groups: ReadonlySet<number>;
  readonly category?: string;
  readonly tag?: string;
  /**
   * A job done on what other services hold (search-words.yaml jobs: backup, migration…) named beside
   * other words ("VM backup", "Backup für virtuelle Maschinen"): the job is what is asked, and its
   * services come before those the other words name (issue 123).
   */
  readonly job?: boolean;
}

export class SearchKinds {
  private readonly data: SearchData;
  /** Per doc, its normalised tags (whole phrases). */
  private readonly tagPhrases: readonly ReadonlySet<string>[];
  /** Group and category names as core token lists. */
  private readonly kindNames: { tokens: readonly string[]; groups: ReadonlySet<number>; category?: string }[];
  /** Shared tags → the groups they name: those holding the tag's services of three or more providers ("waf"). */
  private readonly sharedTags = new Map<string, ReadonlySet<number>>();
  /** The jobs' groups (search-words.yaml jobs) with their names' core tokens. */
  private readonly jobs: readonly { readonly tokens: readonly string[]; readonly group: number }[];

  constructor(data: SearchData, tagPhrases: readonly ReadonlySet<string>[]) {
    this.data = data;
    this.tagPhrases = tagPhrases;
    this.findSharedTags();
    this.kindNames = [
      ...data.groups.map((group, i) => ({
        tokens: norm(group.name).filter((token) => !GENERIC_WORDS.has(token)),
        groups: new Set([i]),
      })),
      ...data.categories.map((category) => ({
        tokens: norm(category.name).filter((token) => !GENERIC_WORDS.has(token)),
        groups: new Set<number>(),
        category: category.id,
      })),
    ];
    const jobIds = new Set(data.words.jobs ?? []);
    this.jobs = data.groups.flatMap((group, i) =>
      jobIds.has(group.id) ? [{ tokens: norm(group.name).filter((token) => !GENERIC_WORDS.has(token)), group: i }] : [],
    );
  }

  /**
   * Tags three or more providers use name a kind; the kind's groups are those in which services
   * of the most providers (three or more) carry the tag (Azure Web Application Firewall for "waf", not
   * Front Door, whose "waf" is a feature of a CDN).
   */
  private findSharedTags(): void {
    const tagProviders = new Map<string, Set<string>>();
    const tagGroupProviders = new Map<string, Map<number, Set<string>>>();
    this.data.docs.forEach((doc, i) => {
      for (const tag of this.tagPhrases[i]!) {
        let set = tagProviders.get(tag);
        if (!set) tagProviders.set(tag, (set = new Set()));
        set.add(doc.provider);
        let byGroup = tagGroupProviders.get(tag);
        if (!byGroup) tagGroupProviders.set(tag, (byGroup = new Map<number, Set<string>>()));
        for (const g of doc.groups) {
          let providers = byGroup.get(g);
          if (!providers) byGroup.set(g, (providers = new Set()));
          providers.add(doc.provider);
        }
      }
    });
    for (const [tag, providers] of tagProviders) {
      if (providers.size < 3) continue;
      const byGroup = [...(tagGroupProviders.get(tag) ?? [])];
      // The groups where most providers use the tag (WAFs for "waf", not CDNs that include one).
      const most = Math.max(0, ...byGroup.map(([, users]) => users.size));
      const groups = byGroup.filter(([, users]) => users.size >= 3 && users.size * 2 >= most).map(([g]) => g);
      this.sharedTags.set(tag, new Set(groups));
    }
  }

  /**
   * A job whose name the words hold, beside other words ("virtual machine backup"): that job,
   * whatever the other words name. The job alone ("backup") is read as any kind is.
   */
  private jobIn(words: readonly string[]): KindMatch | undefined {
    const covers = (word: string, token: string) => word === token || (word.length >= 5 && token.startsWith(word));
    // The job whose name the words hold most of ("server migration" before "migration" alone).
    const best = this.jobs
      .filter(({ tokens }) => tokens.length > 0 && tokens.every((token) => words.some((word) => covers(word, token))))
      .sort((a, b) => b.tokens.length - a.tokens.length)[0];
    if (!best) return undefined;
    const rest = words.filter((word) => !best.tokens.some((token) => covers(word, token)));
    if (rest.length === 0) return undefined;
    // A kind whose longer name holds the job's ("audit logging" of "logging") is that kind.
    const held = (tokens: readonly string[]) => tokens.every((token) => words.some((word) => covers(word, token)));
    const longer = this.kindNames.some(
      ({ tokens }) =>
        tokens.length > best.tokens.length && best.tokens.every((token) => tokens.includes(token)) && held(tokens),
    );
    if (longer) return undefined;
    return { named: true, byKindName: true, whole: false, job: true, groups: new Set([best.group]) };
  }

  /**
   * The kind the words name; in a sentence ("store millions of photos" read as "store millions object
   * storage"), the kind named by its longest run of words of a kind's name (two or more), unless a
   * word outside the run names a product (`namesProduct`: "aurora serverless" asks for Aurora).
   */
  kindIn(words: readonly string[], namesProduct: (word: string) => boolean): KindMatch {
    const job = this.jobIn(words);
    if (job) return job;
    const found = this.kindOf(words);
    if (found.named || words.length <= 2) return found;
    const naming = words.map(namesProduct);
    for (let size = words.length - 1; size >= 2; size--)
      for (let at = 0; at + size <= words.length; at++) {
        if (naming.some((names, i) => names && (i < at || i >= at + size))) continue;
        const inside = this.kindOf(words.slice(at, at + size));
        if (inside.named && inside.byKindName) return inside;
      }
    return found;
  }

  /** Which kind the query's telling words name: a group or category name they make up, or a shared tag. */
  kindOf(telling: readonly string[]): KindMatch {
    const groups = new Set<number>();
    let category: string | undefined;
    let whole = false;
    if (telling.length === 0) return { named: false, byKindName: false, whole, groups };
    for (const kind of this.kindNames) {
      const all = telling.every((word) =>
        kind.tokens.some((token) => token === word || (word.length >= 5 && token.startsWith(word))),
      );
      if (!all) continue;
      whole ||= telling.length === kind.tokens.length;
      for (const g of kind.groups) groups.add(g);
      if (kind.category && telling.length === kind.tokens.length) category = kind.category;
    }
    const byKindName = groups.size > 0 || category !== undefined;
    const phrase = telling.join(" ");
    const tagGroups = this.sharedTags.get(phrase);
    const tag = tagGroups ? phrase : undefined;
    for (const g of tagGroups ?? []) groups.add(g);
    return {
      named: groups.size > 0 || category !== undefined || tag !== undefined,
      byKindName,
      whole,
      groups,
      ...(category ? { category } : {}),
      ...(tag ? { tag } : {}),
    };
  }
}

/**
 * A kind's answer: each provider's leader first (a member matching every word when any does, a
 * job's leaders need not, its words being fewer; one whose own name says the kind before one only
 * in its group), the largest portfolios first, then the rest as ranked.
 */
export function leadersFirst<
  T extends {
    readonly doc: { readonly provider: string };
    readonly member: boolean;
    readonly full: boolean;
    readonly score: number;
  },
>(scored: readonly T[], job: boolean, saysKind: (entry: T) => boolean, size: (provider: string) => number): T[] {
  const leaders = new Map<string, T>();
  const anyFull = scored.some((entry) => entry.full);
  for (const entry of scored) {
    const leader = leaders.get(entry.doc.provider);
    if (entry.member && (job || entry.full === anyFull) && (!leader || (!saysKind(leader) && saysKind(entry))))
      leaders.set(entry.doc.provider, entry);
  }
  const first = [...leaders.values()].sort((a, b) => size(b.doc.provider) - size(a.doc.provider) || b.score - a.score);
  const chosen = new Set(first);
  return [...first, ...scored.filter((entry) => !chosen.has(entry))];
}
