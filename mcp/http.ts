/**
 * POST /mcp: one JSON-RPC message of the Streamable HTTP transport, answered statelessly (no
 * session: a new server and transport per request, as the SDK's stateless mode intends), as JSON
 * rather than an event stream. The SDK's web-standard transport (the one its Node
 * StreamableHTTPServerTransport wraps) takes a Request and gives a Response, so the answer goes
 * back through the contract row's route: CORS, security headers, compression and the Error shape
 * stay the API's. https://modelcontextprotocol.io/specification/2025-06-18/basic/transports
 */
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Result } from "../catalogue/contract/endpoint.ts";
import { HttpError, httpErrorOf } from "../catalogue/base/problem.ts";
import { BATCH_PROTOCOL } from "../catalogue/contract/mcp.ts";
import { catalogueMcpServer } from "./server.ts";
import type { ToolContext } from "./tools.ts";

const JSON_TYPE = "application/json; charset=utf-8";

/**
 * MCP requests begun per turn of the event loop. A burst of calls would otherwise run as one chain
 * of promise callbacks, never letting the loop read another socket until all are answered
 * (BENCHMARKS.md, "MCP load"); beyond these, a request waits for a later turn (setImmediate). The
 * sidecar runs this in its worker thread (the row is `offThread`), where it lets the store's and
 * the rate limiter's replies in between; without a worker (a catalogue made in memory) it runs on
 * the main thread.
 */
const PER_TURN = 2;
let begun = 0;
let turnEnds = false;

async function myTurn(): Promise<void> {
  while (begun >= PER_TURN) await new Promise((resolve) => setImmediate(resolve));
  begun++;
  if (!turnEnds) {
    turnEnds = true;
    setImmediate(() => {
      begun = 0;
      turnEnds = false;
    });
  }
}

/** The transport's refusal (a JSON-RPC error body) in the API's Error shape, status kept. */
function refusal(status: number, text: string): HttpError {
  let message = "";
  try {
    const said = (JSON.parse(text) as { error?: { message?: unknown } }).error?.message;
    message = typeof said === "string" ? said : "";
  } catch {
    // not JSON: the status says enough
  }
  // The catalogue's title for the status (Not acceptable, Unsupported media type…); the SDK's words as details.
  return httpErrorOf(status, undefined, message || undefined);
}

export async function answerMcp(
  context: ToolContext,
  message: unknown,
  headers: Readonly<Record<string, string | undefined>>,
): Promise<Result<never>> {
  if (Array.isArray(message) && headers["mcp-protocol-version"] !== BATCH_PROTOCOL)
    throw new HttpError(
      400,
      "Batches not supported",
      `JSON-RPC batches belong to protocol ${BATCH_PROTOCOL} (send MCP-Protocol-Version: ${BATCH_PROTOCOL}); later revisions take one message per POST`,
    );
  await myTurn();
  // "*/*" (or application/*) accepts the JSON answer; the SDK's transport wants both types named.
  const accept = headers.accept;
  if (accept && /(^|,)\s*(\*\/\*|application\/\*)\s*(;|,|$)/.test(accept))
    headers = { ...headers, accept: "application/json, text/event-stream" };
  const server = catalogueMcpServer(context);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    const request = new Request(`${context.urls.apiUrl}/mcp`, {
      method: "POST",
      // The route parsed the body as JSON: its Content-Type was JSON.
      headers: {
        ...(Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== undefined)) as Record<string, string>),
        "content-type": "application/json",
      },
    });
    const response = await transport.handleRequest(request, { parsedBody: message });
    const text = await response.text();
    if (response.status >= 400) throw refusal(response.status, text);
    // A notification (or a response) is accepted with no body.
    return { text, contentType: JSON_TYPE, status: response.status };
  } finally {
    await server.close();
  }
}
