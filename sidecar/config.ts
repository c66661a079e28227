/**
 * The runtime configuration, parsed once from the environment (docs/design.md "Runtime interface").
 * buildApp(config) takes the result, so tests pass their own.
 */
import { isIP } from "node:net";
import { z } from "zod";
import { issueLines } from "../catalogue/base/issues.ts";
import type { PublicUrls } from "../catalogue/base/urls.ts";

const Port = z.coerce.number().int().min(0).max(65535);
const TrustProxy = z
  .string()
  .transform((value) =>
    value
      .split(",")
      .map((entry) => entry.trim())
      .filter(Boolean),
  )
  .refine(
    (entries) => entries.every((entry) => isIP(entry.split("/")[0]!) !== 0),
    "TRUST_PROXY must list IP addresses or CIDR ranges",
  );

/** `host:port,host:port,…` (an IPv6 host in brackets) → the Sentinels to ask for the Redis primary. */
const Sentinels = z
  .string()
  .transform((value, context) =>
    value
      .split(",")
      .map((entry) => entry.trim())
      .filter(Boolean)
      .map((entry) => {
        const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(entry);
        const port = Number(match?.[3]);
        if (!match || port < 1 || port > 65535) {
          context.addIssue({ code: "custom", message: `"${entry}" is not host:port` });
          return z.NEVER;
        }
        return { host: (match[1] ?? match[2])!, port };
      }),
  )
  .refine((nodes) => nodes.length > 0, "REDIS_SENTINELS must name at least one host:port");

export const Config = z
  .object({
    PORT: Port.default(8080),
    TEXT_PORT: Port.default(8081),
    HOST: z.string().min(1).default("127.0.0.1"),
    REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
    REDIS_SENTINELS: Sentinels.optional(),
    REDIS_SENTINEL_NAME: z.string().min(1).optional(),
    DATA_DIR: z.string().min(1).default(".data"),
    PUBLIC_API_URL: z.url({ protocol: /^https?$/ }).optional(),
    PUBLIC_TEXT_URL: z.url({ protocol: /^https?$/ }).optional(),
    TRUST_PROXY: TrustProxy.optional(),
    // Browser origins POST /mcp accepts beyond its own and loopback ones (sidecar/mcp-origin.ts); "*": any.
    MCP_ALLOWED_ORIGINS: z
      .string()
      .transform((value) =>
        value
          .split(",")
          .map((entry) => entry.trim().replace(/\/+$/, ""))
          .filter(Boolean),
      )
      .pipe(
        z.array(
          z.union([z.literal("*"), z.url({ protocol: /^https?$/ })], {
            error: 'each entry must be "*" or an origin such as https://app.example.org',
          }),
        ),
      )
      .optional(),
    NO_COLOR: z.string().optional(),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  })
  .refine((config) => !(config.REDIS_URL && config.REDIS_SENTINELS), {
    message: "set REDIS_URL (one Redis) or REDIS_SENTINELS (Sentinel), not both",
    path: ["REDIS_SENTINELS"],
  })
  .refine((config) => !config.REDIS_SENTINELS || config.REDIS_SENTINEL_NAME, {
    message: "REDIS_SENTINELS needs REDIS_SENTINEL_NAME, the name the Sentinels monitor the primary under",
    path: ["REDIS_SENTINEL_NAME"],
  });
export type ConfigT = z.infer<typeof Config>;

export function loadConfig(env: NodeJS.ProcessEnv): ConfigT {
  const result = Config.safeParse(Object.fromEntries(Object.entries(env).filter(([, value]) => value !== "")));
  if (!result.success) {
    const lines = issueLines(result.error.issues, { whole: "(environment)" }).map((line) => `  ${line}`);
    throw new Error(`invalid configuration:\n${lines.join("\n")}`);
  }
  return result.data;
}

const trimSlash = (url: string) => url.replace(/\/+$/, "");

/**
 * The URLs a build bakes into its files when no PUBLIC_* URL is set: the default listen addresses.
 * A server on other ports rewrites them as it reads the files (files.ts), so the listen port is
 * not an input of the build.
 */
export const CANONICAL_URLS: PublicUrls = { apiUrl: "http://127.0.0.1:8080", textUrl: "http://127.0.0.1:8081" };

/**
 * The URLs a build bakes in: PUBLIC_* when set (nginx serves the files as built), else the canonical
 * ones; never PORT, TEXT_PORT or HOST, so that starting on another port reuses dist/.
 */
export function buildUrls(config: ConfigT): PublicUrls {
  return {
    apiUrl: config.PUBLIC_API_URL ? trimSlash(config.PUBLIC_API_URL) : CANONICAL_URLS.apiUrl,
    textUrl: config.PUBLIC_TEXT_URL ? trimSlash(config.PUBLIC_TEXT_URL) : CANONICAL_URLS.textUrl,
  };
}

/** URLs that appear in responses: PUBLIC_* when set, else the local listen addresses. */
export function publicUrls(config: ConfigT): PublicUrls {
  const host = config.HOST.includes(":") ? `[${config.HOST}]` : config.HOST;
  return {
    apiUrl: trimSlash(config.PUBLIC_API_URL ?? `http://${host === "0.0.0.0" ? "localhost" : host}:${config.PORT}`),
    textUrl: trimSlash(
      config.PUBLIC_TEXT_URL ?? `http://${host === "0.0.0.0" ? "localhost" : host}:${config.TEXT_PORT}`,
    ),
  };
}
