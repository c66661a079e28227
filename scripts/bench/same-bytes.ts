/**
 * A bound for the static rows of `npm run bench`: a bare node:http server that answers every request
 * with the bytes and headers SOURCE_URL answered once (fetched at start with `Accept-Encoding: br`),
 * on PORT. It does nothing per request but write them, so it measures what Node's HTTP layer
 * itself costs for that answer on this machine: the most any Node server could reach.
 */
import { get, createServer } from "node:http";

const PER_RESPONSE = new Set(["date", "connection", "keep-alive", "transfer-encoding"]);

const { headers, body } = await new Promise<{ headers: string[]; body: Buffer }>((resolve, reject) =>
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

createServer((_request, response) => {
  response.writeHead(200, headers);
  response.end(body);
}).listen(Number(process.env.PORT), "127.0.0.1");
