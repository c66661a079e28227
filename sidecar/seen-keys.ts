/**
 * Keys met once, remembered by a 32-bit hash (FNV-1a) in a table of slots, a newer key taking its
 * slot from an older one: what the replay cache (./replay.ts) and the built files' cache
 * (./files.ts) ask before keeping something, so that what is asked for once (a client varying a
 * parameter, a crawl, a mirror) does not fill them. Where every URL is new, an LRU's eviction on
 * each insert cost 6–10 % of the server's time, and holding the keys themselves kept them alive
 * long enough to be promoted to V8's old generation (a quarter of what the path promoted); this
 * allocates nothing. Two keys of one hash only make the later kept on its first use.
 */
export class SeenKeys {
  private readonly hashes: Uint32Array;

  constructor(slots: number) {
    this.hashes = new Uint32Array(slots);
  }

  /** Notes the key; whether it was noted before (and not since displaced). */
  seen(key: string): boolean {
    let hash = 0x811c9dc5;
    for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
    // 0 marks an empty slot.
    const value = hash >>> 0 || 1;
    const slot = value % this.hashes.length;
    if (this.hashes[slot] === value) return true;
    this.hashes[slot] = value;
    return false;
  }
}
