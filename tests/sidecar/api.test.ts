import { describe, expect, it } from "vitest";
import { ENDPOINTS } from "../../catalogue/contract/index.ts";
import { build, expectError, fixtureCatalogue, postJson, realCatalogue } from "../helpers/app.ts";

describe("GET /v1/services", () => {
  it("answers a filtered search with data and pagination", async () => {
    const app = await build();
    const response = await app.inject("/v1/services?q=object%20storage&limit=5");
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.pagination).toMatchObject({ page: 1, limit: 5 });
    expect(body.data.length).toBeGreaterThan(0);
    expect(body.data.length).toBeLessThanOrEqual(5);
  });

  it("ranks q with the one search: provider words, typos, closest matches and a respelling", async () => {
    const app = await build();
    const first = async (q: string) =>
      (await app.inject(`/v1/services?q=${encodeURIComponent(q)}&limit=3`)).json() as {
        data: { slug: string }[];
        search?: { closest: boolean; didYouMean?: string };
      };
    expect((await first("aws s3")).data[0]!.slug).toBe("aws-s3");
    expect((await first("gcp bigquery")).data[0]!.slug).toBe("gcp-bigquery");
    expect((await first("route53")).data[0]!.slug).toBe("aws-route-53");
    // "postgress" is read as a Dutch form of "postgres" now; "postgers" is a typo no language knows.
    const typo = await first("postgers");
    expect(typo.data.length).toBeGreaterThan(0);
    expect(typo.search).toMatchObject({ closest: false, didYouMean: "postgres" });
    const closest = await first("kubernetes xyzzyqwerty");
    expect(closest.search).toEqual({ closest: true });
    expect(closest.data.map((s) => s.slug)).toEqual(["aws-eks", "azure-kubernetes-service", "gcp-gke"]);
    const nonsense = await first("xyzzyqwerty");
    expect(nonsense.data).toEqual([]);
    expect(nonsense.search).toMatchObject({ closest: false });
    expect((await app.inject("/v1/services?limit=1")).json().search).toBeUndefined();
  });

  it("refuses a page or limit that is not a whole number in range", async () => {
    const app = await build();
    for (const query of ["page=0", "page=1.5", "page=x", "limit=0", "limit=201", "limit=-1", "freeTier=maybe"])
      expectError(await app.inject(`/v1/services?${query}`), 400);
    // An unknown parameter is refused too since 1.11.0 (it was ignored): unknown-parameters.test.ts.
    expectError(await app.inject("/v1/services?limit=200&unknown=1"), 400);
    expect((await app.inject("/v1/services?limit=200")).statusCode).toBe(200);
  });

  it("answers 404 in the Error shape for an unknown slug and an unknown path", async () => {
    const app = await build();
    expectError(await app.inject("/v1/services/nope-nothing"), 404);
    expectError(await app.inject("/v2/anything"), 404);
  });

  it("answers a known path asked with another method 405 with Allow, in the Error shape", async () => {
    const app = await build();
    const cases = [
      ["GET", "/v1/policies/alpha-scp", "POST"],
      ["HEAD", "/v1/policies/alpha-scp", "POST"],
      ["DELETE", "/v1/services", "GET, HEAD"],
      ["PUT", "/v1/lists/some-list", "GET, HEAD"],
      ["GET", "/v1/lists", "POST"],
      ["POST", "/v1/services/aws-s3/", "GET, HEAD"],
      ["PATCH", "/mirror/api/v1/providers.json", "GET, HEAD"],
    ] as const;
    for (const [method, url, allow] of cases) {
      const response = await app.inject({ method, url });
      expect(response.statusCode, `${method} ${url}`).toBe(405);
      expect(response.headers.allow, `${method} ${url}`).toBe(allow);
      if (method !== "HEAD")
        expect(response.json()).toEqual({
          error: "Method not allowed",
          status: 405,
          details: expect.stringContaining(`answers ${allow}, not ${method}`),
        });
    }
    // Paths of no row stay 404, whatever the method.
    expectError(await app.inject({ method: "DELETE", url: "/v1/nothing" }), 404);
    expectError(await app.inject({ method: "GET", url: "/v1/lists/a/b" }), 404);
  });

  it("takes Allow from the contract table: every row's path, asked with DELETE, names the row's method", async () => {
    const app = await build();
    for (const row of ENDPOINTS) {
      const url = row.path.replace(/\{\w+\}/g, "x");
      const response = await app.inject({ method: "DELETE", url });
      expect(response.statusCode, url).toBe(405);
      const allow = String(response.headers.allow).split(", ");
      expect(allow, url).toContain(row.method);
      if (row.method === "GET") expect(allow, url).toContain("HEAD");
      // Every method named is routed.
      for (const method of allow) {
        const answer = await app.inject({
          method: method as "GET",
          url,
          ...(method === "POST" ? { headers: { "content-type": "application/json" }, payload: "{}" } : {}),
        });
        expect(answer.statusCode, `${method} ${url}`).not.toBe(405);
      }
    }
  });
});

describe("GET /v1/services/{slug}: provenance (1.7.0)", () => {
  it("serves the sources newest first, verified per kind of fact, and lastVerified for 1.7 clients", async () => {
    const app = await build({ catalogue: fixtureCatalogue() });
    const response = await app.inject("/v1/services/aws-s3");
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.lastVerified).toBe("2026-11-25");
    expect(body.verified).toEqual({ identity: "2026-11-25", description: "2026-11-25", compliance: "2026-11-20" });
    expect(body.sources).toEqual([
      {
        url: "https://docs.aws.amazon.com/s3/",
        retrieved: "2026-11-25",
        checked: "2026-11-25",
        backs: ["identity", "description"],
      },
      {
        url: "https://aws.amazon.com/compliance/services-in-scope/PCI/",
        retrieved: "2026-11-20",
        checked: "2026-11-20",
        backs: ["compliance"],
      },
    ]);
    // The service's own programmes only; AWS's platform-wide ones stay on the provider.
    expect(body.compliance).toEqual(["pci-dss"]);
    const provider = (await app.inject("/v1/providers")).json().find((p: { id: string }) => p.id === "aws");
    expect(provider.defaultCompliance).toEqual(["iso-27001", "soc-2", "pci-dss"]);
  });

  it("leaves sources and lastVerified out of a service that has none, and out of list rows", async () => {
    const app = await build({ catalogue: fixtureCatalogue() });
    const lambda = (await app.inject("/v1/services/aws-lambda")).json();
    expect(lambda).not.toHaveProperty("sources");
    expect(lambda).not.toHaveProperty("lastVerified");
    expect(lambda).not.toHaveProperty("verified");
    expect(lambda.compliance).toEqual([]);
    const rows = (await app.inject("/v1/services?limit=200")).json().data;
    expect(rows.find((row: { slug: string }) => row.slug === "aws-s3")).not.toHaveProperty("sources");
  });

  it("labels the provider's programmes as what the provider holds in compare, apart from the service's own", async () => {
    const app = await build({ catalogue: fixtureCatalogue() });
    const body = (await app.inject("/v1/compare?ids=aws-s3,aws-lambda")).json();
    const row = (id: string) => body.attributes.find((a: { attribute: string }) => a.attribute === id);
    expect(row("compliance").values).toEqual({ "aws-s3": ["pci-dss"], "aws-lambda": [] });
    // S3's own PCI DSS is not repeated as the provider's.
    expect(row("providerCompliance")).toMatchObject({
      label: "Provider holds",
      values: { "aws-s3": ["soc-2", "iso-27001"], "aws-lambda": ["soc-2", "pci-dss", "iso-27001"] },
      shared: false,
    });
    expect(body.compliance).toEqual({ common: [], bySlug: { "aws-s3": ["pci-dss"], "aws-lambda": [] } });
  });
});

describe("GET /v1/compare and /v1/exposure", () => {
  const slugs = (n: number) =>
    realCatalogue()
      .services.slice(0, n)
      .map((s) => s.slug)
      .join(",");

  it("compares 10 services and refuses 11", async () => {
    const app = await build();
    const ok = await app.inject(`/v1/compare?ids=${slugs(10)}`);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().services).toHaveLength(10);
    expect(ok.json().attributes.map((a: { attribute: string }) => a.attribute)).toContain("headOfficeCountry");
    expect(expectError(await app.inject(`/v1/compare?ids=${slugs(11)}`), 400).details).toMatch(/At most 10/);
  });

  it("scores 50 services and refuses 51, missing ids and unknown slugs", async () => {
    const app = await build();
    const ok = await app.inject(`/v1/exposure?ids=${slugs(50)}`);
    expect(ok.statusCode).toBe(200);
    const report = ok.json();
    expect(report.totalServices).toBe(50);
    expect(report.disclaimer).toMatch(/not legal advice/);
    expect(report.services).toHaveLength(50);
    expectError(await app.inject(`/v1/exposure?ids=${slugs(51)}`), 400);
    expectError(await app.inject("/v1/exposure"), 400);
    expectError(await app.inject("/v1/exposure?ids="), 400);
    expect(expectError(await app.inject("/v1/exposure?ids=aws-s3,nope-x"), 400).details).toContain("nope-x");
  });

  it("counts the US share over distinct providers", async () => {
    const app = await build({ catalogue: fixtureCatalogue() });
    const report = (await app.inject("/v1/exposure?ids=aws-s3,aws-lambda,stackit-object-storage")).json();
    expect(report.totalProviders).toBe(2);
    expect(report.usHeadquarteredProviderPercentage).toBe(50);
    expect(report.sovereignOptionCount).toBe(1);
    expect(report.euResidentOnlyCount).toBe(1);
  });
});

describe("policies and export", () => {
  it("answers the SCP document itself, keeping the essentials, and explains it on request", async () => {
    const app = await build({ catalogue: fixtureCatalogue() });
    const ids = ["aws-s3", "aws-lambda", "stackit-object-storage", "aws-old-thing"];
    const response = await app.inject(postJson("/v1/policies/alpha-scp", { approvedServiceIds: ids }));
    expect(response.statusCode).toBe(200);
    expect(response.headers["x-ratelimit-limit"]).toBe("10");
    const body = response.json();
    expect(Object.keys(body)).toEqual(["Version", "Statement"]);
    expect(body.Statement).toHaveLength(1);
    expect(body.Statement[0]).toMatchObject({ Sid: "DenyAllButApprovedServices", Effect: "Deny", Resource: "*" });
    expect(body.Statement[0].NotAction).toEqual(expect.arrayContaining(["lambda:*", "s3:*", "iam:*", "sts:*"]));
    expect(body.Statement[0].NotAction).not.toContain("cloud9:*");

    const explained = (
      await app.inject(postJson("/v1/policies/alpha-scp?explain=true", { approvedServiceIds: ids }))
    ).json();
    expect(explained.policy).toEqual(body);
    expect(explained.characters).toBe(JSON.stringify(body).length);
    expect(explained.strategy).toBe("deny-list");
    expect(explained.skipped.map((s: { id: string }) => s.id)).toEqual(["stackit-object-storage", "aws-old-thing"]);
    expect(explained.essentials).toEqual(expect.arrayContaining(["iam", "sts", "organizations", "account"]));
    expect(explained.unconfirmed).toEqual([]);
  });

  it("leaves the essentials out only when asked to", async () => {
    const app = await build({ catalogue: fixtureCatalogue() });
    const body = (
      await app.inject(postJson("/v1/policies/alpha-scp?essentials=false", { approvedServiceIds: ["aws-s3"] }))
    ).json();
    expect(body.Statement[0].NotAction).toEqual(["s3:*"]);
    expectError(
      await app.inject(postJson("/v1/policies/alpha-scp?essentials=maybe", { approvedServiceIds: ["aws-s3"] })),
      400,
    );
  });

  it("answers 400 naming why when there is nothing to allow, never a deny-everything document", async () => {
    const app = await build({ catalogue: fixtureCatalogue() });
    for (const path of ["alpha-scp", "beta-policy", "gamma-org-policy"]) {
      const error = expectError(
        await app.inject(postJson(`/v1/policies/${path}`, { approvedServiceIds: ["stackit-object-storage"] })),
        400,
      );
      expect(error.error).toBe("Nothing to allow");
      expect(error.details).toMatch(/^The approved service is not an? (AWS|Azure|Google Cloud) service/);
    }
    expect(
      expectError(await app.inject(postJson("/v1/policies/alpha-scp", { approvedServiceIds: ["aws-old-thing"] })), 400)
        .details,
    ).toMatch(/^The approved AWS service has no IAM service prefix \(aws-old-thing\)/);
  });

  it("refuses a deny-list SCP over 5,120 characters truthfully and splits an allow-list into parts", async () => {
    const app = await build();
    const ids = realCatalogue()
      .services.filter((s) => s.providerId === "aws")
      .map((s) => s.slug);
    const refused = expectError(await app.inject(postJson("/v1/policies/alpha-scp", { approvedServiceIds: ids })), 400);
    expect(refused.details).toMatch(/cannot be split/);
    expect(refused.details).toMatch(/strategy=allow-list/);
    expect(refused.details).not.toMatch(/Split the approved services/);

    const several = expectError(
      await app.inject(postJson("/v1/policies/alpha-scp?strategy=allow-list", { approvedServiceIds: ids })),
      400,
    );
    expect(several.details).toMatch(/part=1/);
    const explained = (
      await app.inject(postJson("/v1/policies/alpha-scp?strategy=allow-list&explain=true", { approvedServiceIds: ids }))
    ).json();
    expect(explained.policies.length).toBeGreaterThan(1);
    expect(explained.policies.length).toBeLessThanOrEqual(5);
    for (const [index, policy] of explained.policies.entries()) {
      expect(JSON.stringify(policy).length).toBeLessThanOrEqual(5120);
      expect(policy.Statement[0].Effect).toBe("Allow");
      const part = await app.inject(
        postJson(`/v1/policies/alpha-scp?strategy=allow-list&part=${index + 1}`, { approvedServiceIds: ids }),
      );
      expect(part.statusCode).toBe(200);
      expect(part.json()).toEqual(policy);
    }
    const last = explained.policies.length + 1;
    expectError(
      await app.inject(
        postJson(`/v1/policies/alpha-scp?strategy=allow-list&part=${last}`, { approvedServiceIds: ids }),
      ),
      400,
    );
    expectError(await app.inject(postJson("/v1/policies/alpha-scp?part=1", { approvedServiceIds: ["aws-s3"] })), 400);
  });

  it("answers the Azure policy set definition itself, on the built-in Allowed resource types policy", async () => {
    const app = await build();
    const azure = realCatalogue()
      .services.filter((s) => s.providerId === "azure")
      .slice(0, 3)
      .map((s) => s.slug);
    const body = (
      await app.inject(postJson("/v1/policies/beta-policy", { approvedServiceIds: [...azure, "aws-s3"] }))
    ).json();
    expect(Object.keys(body)).toEqual(["properties"]);
    expect(body.properties.policyDefinitions[0].policyDefinitionId).toBe(
      "/providers/Microsoft.Authorization/policyDefinitions/a08ec900-254a-4555-9bf5-e42af04b5c5c",
    );
    const types = body.properties.parameters.allowedResourceTypes.defaultValue;
    expect(types).toContain("Microsoft.Resources/deployments");
    expect(types.every((t: string) => t.startsWith("Microsoft."))).toBe(true);
    const explained = (
      await app.inject(postJson("/v1/policies/beta-policy?explain=true", { approvedServiceIds: [...azure, "aws-s3"] }))
    ).json();
    expect(explained.policy).toEqual(body);
    expect(explained.skipped.map((s: { id: string }) => s.id)).toContain("aws-s3");
  });

  it("answers the GCP organization policy itself with every approved API name", async () => {
    const app = await build();
    const gcp = realCatalogue()
      .services.filter((s) => s.providerId === "gcp")
      .slice(0, 5)
      .map((s) => s.slug);
    const body = (
      await app.inject(postJson("/v1/policies/gamma-org-policy?organizationId=123456789", { approvedServiceIds: gcp }))
    ).json();
    expect(Object.keys(body)).toEqual(["name", "spec"]);
    expect(body.name).toBe("organizations/123456789/policies/gcp.restrictServiceUsage");
    const allowed = body.spec.rules[0].values.allowedValues;
    expect(allowed.every((s: string) => s.endsWith(".googleapis.com"))).toBe(true);
    expect(allowed).toContain("serviceusage.googleapis.com");
    expectError(
      await app.inject(postJson("/v1/policies/gamma-org-policy?organizationId=abc", { approvedServiceIds: gcp })),
      400,
    );
  });

  it("publishes the changelog, 1.0.0 to the current version, linked from discovery", async () => {
    const app = await build();
    const response = await app.inject("/v1/changelog");
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.current).toBe("1.13.0");
    expect(body.versions.map((v: { version: string }) => v.version)).toEqual([
      "1.13.0",
      "1.12.0",
      "1.11.0",
      "1.10.0",
      "1.9.0",
      "1.8.0",
      "1.7.0",
      "1.6.0",
      "1.5.1",
      "1.5.0",
      "1.4.0",
      "1.3.0",
      "1.2.0",
      "1.1.0",
      "1.0.0",
    ]);
    expect((await app.inject("/")).json().documentation.changelog).toBe("http://api.test/v1/changelog");
  });

  it("exports Markdown with lifecycle shown", async () => {
    const app = await build({ catalogue: fixtureCatalogue() });
    const response = await app.inject(
      postJson("/v1/export/markdown", { approvedServiceIds: ["aws-s3", "aws-old-thing"] }),
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/markdown; charset=utf-8");
    expect(response.body).toContain("retired 2024-01-31 → aws-s3");
    expect(response.body).toContain("2 approved services.");
    const one = await app.inject(postJson("/v1/export/markdown", { approvedServiceIds: ["aws-s3"] }));
    expect(one.body).toContain("1 approved service.");
    expect(one.body).not.toContain("1 approved services");
  });

  it("refuses bad bodies in the Error shape", async () => {
    const app = await build({ catalogue: fixtureCatalogue() });
    expect(
      expectError(await app.inject(postJson("/v1/policies/alpha-scp", { serviceIds: ["aws-s3"] })), 400).details,
    ).toMatch(/approvedServiceIds/);
    expect(
      expectError(await app.inject(postJson("/v1/export/markdown", { approvedServiceIds: ["aws-s3", "nope-1"] })), 400)
        .details,
    ).toContain("nope-1");
    expectError(await app.inject(postJson("/v1/policies/beta-policy", { approvedServiceIds: [] })), 400);
    expectError(await app.inject(postJson("/v1/policies/beta-policy", {})), 400);
    expectError(await app.inject(postJson("/v1/policies/beta-policy", "[1,2]")), 400);
    expectError(await app.inject(postJson("/v1/policies/beta-policy", "{not json")), 400);
    expectError(
      await app.inject(postJson("/v1/policies/beta-policy", '{"__proto__":{"a":1},"approvedServiceIds":["aws-s3"]}')),
      400,
    );
    expectError(
      await app.inject(
        postJson("/v1/policies/beta-policy", '{"constructor":{"prototype":{"a":1}},"approvedServiceIds":["aws-s3"]}'),
      ),
      400,
    );
    expectError(
      await app.inject({
        ...postJson("/v1/policies/beta-policy", "approvedServiceIds=aws-s3"),
        headers: { "content-type": "application/x-www-form-urlencoded" },
      }),
      415,
    );
    expectError(
      await app.inject(postJson("/v1/lists", { approvedServiceIds: ["aws-s3"], name: "x".repeat(70 * 1024) })),
      413,
    );
  });
});

describe("saved lists", () => {
  it("saves with an explicit slug, answers 409 when it is taken, and reads by slug or id", async () => {
    const app = await build({ catalogue: fixtureCatalogue() });
    const created = await app.inject(postJson("/v1/lists", { approvedServiceIds: ["aws-s3"], slug: "team-a" }));
    expect(created.statusCode).toBe(200);
    const list = created.json();
    expect(list).toMatchObject({
      slug: "team-a",
      name: null,
      url: "http://text.test/lists/team-a",
      approvedServiceIds: ["aws-s3"],
    });
    expect(list.id).toMatch(/^[A-Za-z0-9_-]{21}$/);
    expectError(await app.inject(postJson("/v1/lists", { approvedServiceIds: ["aws-s3"], slug: "team-a" })), 409);
    expect((await app.inject(`/v1/lists/team-a`)).json().id).toBe(list.id);
    const byId = (await app.inject(`/v1/lists/${list.id}`)).json();
    expect(byId.services[0].slug).toBe("aws-s3");
    expectError(await app.inject("/v1/lists/nothing-here"), 404);
  });

  it("enforces each slug rule", async () => {
    const app = await build({ catalogue: fixtureCatalogue() });
    for (const slug of ["a", "-ab", "ab-", "AB", "a b", "x".repeat(65)])
      expectError(await app.inject(postJson("/v1/lists", { approvedServiceIds: ["aws-s3"], slug })), 400);
    for (const slug of ["ab", "x".repeat(64), "a-1-b"])
      expect((await app.inject(postJson("/v1/lists", { approvedServiceIds: ["aws-s3"], slug }))).statusCode).toBe(200);
  });

  it("derives slugs from names with -2 and -3 on collision, and null for short names", async () => {
    const app = await build({ catalogue: fixtureCatalogue() });
    const slugs = [];
    for (let i = 0; i < 3; i++)
      slugs.push(
        (await app.inject(postJson("/v1/lists", { approvedServiceIds: ["aws-s3"], name: "Platform Baseline" }))).json()
          .slug,
      );
    expect(slugs).toEqual(["platform-baseline", "platform-baseline-2", "platform-baseline-3"]);
    const unnamed = (await app.inject(postJson("/v1/lists", { approvedServiceIds: ["aws-s3"], name: "!" }))).json();
    expect(unnamed.slug).toBeNull();
    expect(unnamed.url).toBe(`http://text.test/lists/${unnamed.id}`);
  });
});

describe("feedback and outbound clicks", () => {
  it("accepts 5 and 5000 characters and refuses 4 and 5001", async () => {
    const app = await build({ catalogue: fixtureCatalogue() });
    for (const [length, status] of [
      [4, 400],
      [5, 201],
      [5000, 201],
      [5001, 400],
    ] as const) {
      const response = await app.inject(postJson("/v1/feedback", { message: "x".repeat(length) }));
      expect(response.statusCode, String(length)).toBe(status);
    }
    const ok = await app.inject(postJson("/v1/feedback", { message: "hello there", type: "nonsense" }));
    expect(ok.json()).toEqual({ success: true, message: expect.any(String) });
    expect(ok.headers["x-ratelimit-limit"]).toBe("30");
    expectError(await app.inject(postJson("/v1/feedback", { message: "hello there", email: "nope" })), 400);
    expect(expectError(await app.inject(postJson("/v1/feedback", { message: " \n\t   " })), 400).details).toMatch(
      /must not be blank/,
    );
  });

  it("records outbound clicks", async () => {
    const app = await build({ catalogue: fixtureCatalogue() });
    const response = await app.inject(
      postJson("/v1/analytics/outbound", {
        url: "https://aws.amazon.com/s3/pricing/",
        serviceId: "aws-s3",
        kind: "pricing",
      }),
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ recorded: true });
    expectError(await app.inject(postJson("/v1/analytics/outbound", { url: "javascript:alert(1)" })), 400);
  });
});

describe("rate limits", () => {
  it("allows 10 strict requests a minute per IP and answers the 11th with 429 and Retry-After", async () => {
    const app = await build({ catalogue: fixtureCatalogue() });
    for (let i = 1; i <= 10; i++)
      expect(
        (await app.inject(postJson("/v1/export/markdown", { approvedServiceIds: ["aws-s3"] }))).statusCode,
        `request ${i}`,
      ).toBe(200);
    const limited = await app.inject(postJson("/v1/lists", { approvedServiceIds: ["aws-s3"] }));
    expectError(limited, 429);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    expect(limited.headers["x-ratelimit-limit"]).toBe("10");
    // The message names what was limited, the bucket's other endpoints and when to retry.
    const { details } = limited.json() as { details: string };
    expect(details).toMatch(
      /^POST \/v1\/lists is limited to 10 requests per minute per IP \(the strict bucket, shared with /,
    );
    expect(details).toContain("POST /v1/export/markdown");
    expect(details).toContain("POST /v1/policies/alpha-scp");
    expect(details).toMatch(new RegExp(`retry in ${limited.headers["retry-after"]} seconds?\\.$`));
    expect(details).not.toContain("this endpoint");
    // The relaxed bucket is independent: 30 more pass, the 31st does not.
    for (let i = 1; i <= 30; i++)
      expect((await app.inject(postJson("/v1/feedback", { message: "hello there" }))).statusCode, `feedback ${i}`).toBe(
        201,
      );
    expectError(await app.inject(postJson("/v1/feedback", { message: "hello there" })), 429);
    // Reads are never limited.
    expect((await app.inject("/v1/providers")).statusCode).toBe(200);
  });

  it("keys on the socket address: X-Forwarded-For cannot choose the bucket without TRUST_PROXY", async () => {
    const app = await build({ catalogue: fixtureCatalogue() });
    for (let i = 1; i <= 10; i++)
      await app.inject(
        postJson("/v1/export/markdown", { approvedServiceIds: ["aws-s3"] }, { "x-forwarded-for": `10.0.0.${i}` }),
      );
    expectError(
      await app.inject(
        postJson("/v1/export/markdown", { approvedServiceIds: ["aws-s3"] }, { "x-forwarded-for": "10.9.9.9" }),
      ),
      429,
    );
  });

  it("honours X-Forwarded-For from a proxy named in TRUST_PROXY", async () => {
    const app = await build({
      catalogue: fixtureCatalogue(),
      config: { LOG_LEVEL: "silent", TRUST_PROXY: ["127.0.0.1"] },
    });
    for (let i = 1; i <= 10; i++)
      await app.inject(
        postJson("/v1/export/markdown", { approvedServiceIds: ["aws-s3"] }, { "x-forwarded-for": "203.0.113.1" }),
      );
    expect(
      (
        await app.inject(
          postJson("/v1/export/markdown", { approvedServiceIds: ["aws-s3"] }, { "x-forwarded-for": "203.0.113.2" }),
        )
      ).statusCode,
    ).toBe(200);
  });
});

describe("operations", () => {
  it("reports status with counts and components, history newest first, and a cheap health", async () => {
    const app = await build();
    const status = (await app.inject("/v1/status")).json();
    expect(status.counts.services).toBe(realCatalogue().services.length);
    expect(status.components.map((c: { component: string }) => c.component)).toEqual(["catalogue", "store", "sidecar"]);
    expect((await app.inject("/v1/status/history")).json()).toEqual({ data: expect.any(Array) });
    expect((await app.inject("/v1/health")).json()).toMatchObject({ status: "ok", store: "embedded" });
  });

  it("ignores X-API-Key and answers CORS preflight", async () => {
    const app = await build({ catalogue: fixtureCatalogue() });
    expect((await app.inject({ url: "/v1/providers", headers: { "x-api-key": "anything" } })).statusCode).toBe(200);
    const preflight = await app.inject({
      method: "OPTIONS",
      url: "/v1/lists",
      headers: { origin: "https://example.org", "access-control-request-method": "POST" },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers["access-control-allow-origin"]).toBe("*");
    expect((await app.inject("/v1/providers")).headers["cross-origin-resource-policy"]).toBe("cross-origin");
  });
});
