/**
 * A bound for the static rows of `npm run bench`: a bare node:http server that answers every request
 * with the bytes and headers SOURCE_URL answered once (fetched at start with `Accept-Encoding: br`),
 * on PORT. It does nothing per request but write them, so it measures what Node's HTTP layer
 * itself costs for that answer on this machine: the most any Node server could reach.
 * THREADS (default 1) worker threads serve the port together (`reusePort`: the kernel spreads
 * the connections), for the bound of a Node server that uses every core.
 */
import { get, createServer } from "node:http";
import { isMainThread, Worker, workerData } from "node:worker_threads";

const PER_RESPONSE = new Set(["date", "connection", "keep-alive", "transfer-encoding"]);

interface Answer {
  headers: string[];
  body: Uint8Array;
}

const fetchAnswer = () =>
  new Promise<Answer>((resolve, reject) =>
    get(process.env.SOURCE_URL!, { headers: { "accept-encoding": "br" } }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const pairs: string[] = [];
        for (let i = 0; i < response.rawHeaders.length; i += 2)
          if (!PER_RESPONSE.has(response.rawHeaders[i]!.toLowerCase()))
            pairs.push(response.rawHeaders[i]!, response.rawHeaders[i + 1]!);
        resolve({ headers: pairs, body: Buffer.concat(chunks) });
      });
    }).once("error", reject),
  );

function serve({ headers, body }: Answer): void {
  const bytes = Buffer.from(body);
  createServer((_request, response) => {
    response.writeHead(200, headers);
    response.end(bytes);
  }).listen({ port: Number(process.env.PORT), host: "127.0.0.1", reusePort: true });
}

if (isMainThread) {
  const answer = await fetchAnswer();
  const threads = Number(process.env.THREADS ?? 1);
  if (threads === 1) serve(answer);
  else for (let i = 0; i < threads; i++) new Worker(new URL(import.meta.url), { workerData: answer });
} else serve(workerData as Answer);
