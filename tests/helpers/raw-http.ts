/**
 * HTTP requests exactly as written: the path is sent as is (fetch resolves "..", curl needs
 * --path-as-is) and a request that gets no answer within `timeoutMs` resolves as a hang.
 */
import { request as httpRequest } from "node:http";
import { connect } from "node:net";

export interface RawAnswer {
  readonly status: number;
  readonly statusMessage: string;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
  readonly ms: number;
}

export function rawRequest(
  base: string,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string; timeoutMs?: number },
): Promise<RawAnswer | "hang"> {
  const url = new URL(base);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: options.method ?? "GET",
        path: options.path,
        headers: { connection: "close", ...options.headers },
        agent: false,
      },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (body += chunk));
        response.on("end", () => {
          clearTimeout(timer);
          resolve({
            status: response.statusCode!,
            statusMessage: response.statusMessage ?? "",
            headers: response.headers,
            body,
            ms: performance.now() - started,
          });
        });
      },
    );
    const timer = setTimeout(() => {
      request.destroy();
      resolve("hang");
    }, options.timeoutMs ?? 5000);
    request.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    request.end(options.body);
  });
}

/**
 * Writes `head` (and `body`, when given) on a socket and resolves with what came back and when the
 * server closed it. A server that answers before reading the whole body may reset the socket: the
 * answer is what arrived.
 */
export function socketExchange(
  base: string,
  head: string,
  timeoutMs: number,
  body?: string | Buffer,
): Promise<{ answer: string; closedAfterMs: number | "open" }> {
  const url = new URL(base);
  const started = performance.now();
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname);
    let answer = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (answer += chunk));
    socket.on("error", () => undefined);
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ answer, closedAfterMs: "open" });
    }, timeoutMs);
    socket.on("close", () => {
      clearTimeout(timer);
      resolve({ answer, closedAfterMs: performance.now() - started });
    });
    socket.write(head);
    if (body !== undefined) socket.write(body);
  });
}
