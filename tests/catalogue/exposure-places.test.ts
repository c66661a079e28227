/**
 * The exposure scorecard's placing in places, in the words the site shows on its server-rendered
 * page and from its script alike (catalogue/equivalence/exposure-places.ts).
 */
import { describe, expect, it } from "vitest";
import { exposureReport } from "../../catalogue/equivalence/exposure.ts";
import { placedIn, placesNotes } from "../../catalogue/equivalence/exposure-places.ts";
import { resolvePlaces } from "../../catalogue/locations/places.ts";
import { realCatalogue } from "../helpers/catalogue.ts";

const catalogue = realCatalogue();
const report = (ids: string[], places: string[]) =>
  exposureReport(catalogue, ids, resolvePlaces(catalogue, places, "regions"));

describe("the scorecard placed in places, in words", () => {
  it("says per row where the data sits: a global service's vendor region, a regional one's regions, a provider-level one's possible ones", () => {
    const placed = report(
      ["aws-cloudfront", "aws-s3", "hetzner-cloud-servers", "hetzner-object-storage"],
      ["sin", "eu-central-1"],
    );
    const words = Object.fromEntries(placed.services.map((row) => [row.slug, placedIn(row)]));
    expect(words).toEqual({
      "aws-cloudfront": "global: us-east-1",
      "aws-s3": "eu-central-1",
      "hetzner-cloud-servers": "may be in sin (its own regions are not known)",
      "hetzner-object-storage": "runs in none of them",
    });
  });

  it("names the places asked, the services in none of them and the provider-level ones apart", () => {
    const notes = placesNotes(report(["aws-cloudfront", "aws-s3", "hetzner-cloud-servers"], ["sin", "EU"]));
    expect(notes).toEqual([
      "Placed in sin (region), EU (group).",
      "In none of these places: Amazon CloudFront.",
      "Provider level, listed apart (their own regions are not known; their provider has a region here, so they may or may not run here): Cloud Servers.",
    ]);
    expect(placesNotes(exposureReport(catalogue, ["aws-s3"]))).toEqual([]);
  });
});
