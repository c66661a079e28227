import { describe, expect, it } from "vitest";
import { CHANGELOG, changelog } from "../../catalogue/contract/changelog.ts";
import { ENDPOINTS } from "../../catalogue/contract/index.ts";
import { API_VERSION } from "../../catalogue/base/version.ts";
import { Changelog } from "../../catalogue/schema/index.ts";
import { apiFiles, staticFileFor } from "../../catalogue/outputs/static.ts";
import { renderNginxConfig } from "../../scripts/deploy-config.ts";
import { fixtureCatalogue, URLS } from "../helpers/app.ts";

const semver = (version: string) => version.split(".").map(Number) as [number, number, number];
const newer = (a: string, b: string) => {
  const [x, y] = [semver(a), semver(b)];
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
};

describe("the published changelog", () => {
  it("holds the contract's history 1.0.0 to 1.5.1 and, newest, the version the API declares", () => {
    const body = changelog();
    expect(Changelog.parse(body)).toEqual(body);
    expect(body.current).toBe(API_VERSION);
    expect(body.versions[0]!.version).toBe(API_VERSION);
    expect(API_VERSION).toBe("1.13.0");
    for (const version of ["1.0.0", "1.1.0", "1.2.0", "1.3.0", "1.4.0", "1.5.0", "1.5.1"])
      expect(body.versions.map((entry) => entry.version)).toContain(version);
  });

  it("lists versions newest first, each once", () => {
    const versions = CHANGELOG.map((entry) => entry.version);
    expect(new Set(versions).size).toBe(versions.length);
    for (let i = 1; i < versions.length; i++) expect(newer(versions[i - 1]!, versions[i]!)).toBeGreaterThan(0);
  });

  it("is a static file, written by the build and mapped from /v1/changelog, with an nginx location", () => {
    expect(staticFileFor(ENDPOINTS, "/v1/changelog", "")?.path).toBe("api/v1/changelog.json");
    const file = [...apiFiles(fixtureCatalogue(), URLS)].find((f) => f.file === "v1/changelog.json");
    expect(file?.body).toBe(JSON.stringify(changelog()));
    const nginx = renderNginxConfig({
      dist: "/srv/dist",
      prefix: "/tmp/nginx",
      apiPort: 80,
      textPort: 8081,
      sidecars: [{ host: "127.0.0.1", apiPort: 8080, textPort: 8082 }],
    });
    expect(nginx).toMatch(/location = \/v1\/changelog \{[^\n]*try_files \/v1\/changelog\.json @sidecar; \}/);
  });
});
