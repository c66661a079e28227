/** The one protocol revision whose clients may send JSON-RPC batches (MCP 2025-03-26; later ones removed them). */
export const BATCH_PROTOCOL = "2025-03-26";
