/** Parts of ServiceList.search (resources.ts) kept apart so that file stays readable. */
import { z } from "zod";
import { d } from "./vocabulary.ts";

/** A product the catalogue does not list that q named, read as the kinds of service it is (since 1.11.0). */
export const SearchOtherProduct = z.object({
  name: z.string().meta(d("The product as its vendor names it (Snowflake)")),
  kinds: z
    .array(
      z.object({
        id: z.string().meta(d("An equivalence group id (GET /v1/equivalents/{id}) or a category id")),
        name: z.string().meta(d("Its name")),
      }),
    )
    .meta(d("The kinds of service it is, the main one first")),
  why: z.string().meta(d("Why it is of those kinds, in one sentence")),
});
