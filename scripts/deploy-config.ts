/**
 * Renders deploy/nginx.conf.template for a deployment:
 *   node scripts/deploy-config.ts --dist /srv/catalogue/dist --prefix /var/lib/catalogue-nginx \
 *     --api-port 80 --text-port 8081 --sidecar 10.0.0.5:8080/8081 --sidecar 10.0.0.6:8080/8081 > nginx.conf
 * Each --sidecar is host:apiPort/textPort of one `node sidecar/server.ts`.
 */
import { existsSync, readFileSync } from "node:fs";
import { parseArgs } from "node:util";

export interface NginxOptions {
  dist: string;
  prefix: string;
  apiPort: number;
  textPort: number;
  listen?: string;
  sidecars: { host: string; apiPort: number; textPort: number }[];
  user?: string;
}

const TEMPLATE = new URL("../deploy/nginx.conf.template", import.meta.url);
const BROTLI_MODULE = "/usr/share/nginx/modules-available/mod-http-brotli-static.conf";
const BROTLI_SO = "/usr/lib/nginx/modules/ngx_http_brotli_static_module.so";

export function renderNginxConfig(options: NginxOptions): string {
  const upstream = (port: "apiPort" | "textPort") =>
    options.sidecars.map((s) => `    server ${s.host}:${s[port]} max_fails=1 fail_timeout=5s;`).join("\n");
  // Debian's packaged modules load through modules-enabled; a config run with -c loads it itself.
  const loadModules = existsSync(BROTLI_SO)
    ? `load_module ${BROTLI_SO};`
    : existsSync(BROTLI_MODULE)
      ? readFileSync(BROTLI_MODULE, "utf8")
      : "";
  const values: Record<string, string> = {
    "@LOAD_MODULES@": loadModules,
    "@PREFIX@": options.prefix,
    "@USER@": options.user ? `user ${options.user};` : "",
    "@DIST@": options.dist,
    "@API_PORT@": String(options.apiPort),
    "@TEXT_PORT@": String(options.textPort),
    "@LISTEN@": options.listen ?? "127.0.0.1",
    "@API_UPSTREAMS@": upstream("apiPort"),
    "@TEXT_UPSTREAMS@": upstream("textPort"),
  };
  let config = readFileSync(TEMPLATE, "utf8");
  if (!loadModules) config = config.replace(/^\s*brotli_static on;\n/m, "");
  return config.replace(/@[A-Z_]+@/g, (key) => values[key] ?? key);
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      dist: { type: "string" },
      prefix: { type: "string" },
      "api-port": { type: "string", default: "80" },
      "text-port": { type: "string", default: "8081" },
      listen: { type: "string", default: "0.0.0.0" },
      sidecar: { type: "string", multiple: true },
      user: { type: "string" },
    },
  });
  if (!values.dist || !values.prefix || !values.sidecar?.length) {
    console.error(
      "usage: deploy-config.ts --dist DIR --prefix DIR [--api-port N] [--text-port N] [--listen ADDR] --sidecar host:api/text …",
    );
    process.exit(2);
  }
  const sidecars = values.sidecar.map((entry) => {
    const match = /^(.+):(\d+)\/(\d+)$/.exec(entry);
    if (!match) throw new Error(`--sidecar ${entry}: expected host:apiPort/textPort`);
    return { host: match[1]!, apiPort: Number(match[2]), textPort: Number(match[3]) };
  });
  process.stdout.write(
    renderNginxConfig({
      dist: values.dist,
      prefix: values.prefix,
      apiPort: Number(values["api-port"]),
      textPort: Number(values["text-port"]),
      listen: values.listen!,
      sidecars,
      ...(values.user ? { user: values.user } : {}),
    }),
  );
}
