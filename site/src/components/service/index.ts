/**
 * The service page's sections as the site renders them: one component per section of
 * catalogue/render/sections.ts, which the text renderings walk too (the type requires every one).
 */
import type { ServiceSectionId } from "../../../../catalogue/render/sections.ts";
import Compatibility from "./Compatibility.astro";
import Dependencies from "./Dependencies.astro";
import Equivalents from "./Equivalents.astro";
import Fields from "./Fields.astro";
import Lineage from "./Lineage.astro";
import PolicyIdentifiers from "./PolicyIdentifiers.astro";
import Sources from "./Sources.astro";
import SubServices from "./SubServices.astro";
import Summary from "./Summary.astro";
import Terraform from "./Terraform.astro";

export const SECTION_COMPONENTS: Record<ServiceSectionId, typeof Summary> = {
  summary: Summary,
  fields: Fields,
  lineage: Lineage,
  compatibility: Compatibility,
  "sub-services": SubServices,
  "policy-identifiers": PolicyIdentifiers,
  terraform: Terraform,
  equivalents: Equivalents,
  dependencies: Dependencies,
  sources: Sources,
};
