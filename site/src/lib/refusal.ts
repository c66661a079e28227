/**
 * A request a page refuses as the API does (an unknown or empty filter value, a parameter the page
 * does not take: catalogue/search/filter-table.ts): the refusal as a Doc in the site's layout, with
 * the API's title and details, answered with the API's status (issue 123).
 */
import { isHttpError, type HttpError } from "../../../catalogue/base/problem.ts";
import { heading, paragraph, type Doc } from "../../../catalogue/format/doc.ts";

/** The refusal a page's reading threw, or undefined (anything else is thrown on). */
export function refusalOf(read: () => void): HttpError | undefined {
  try {
    read();
    return undefined;
  } catch (error) {
    if (isHttpError(error) && error.statusCode < 500) return error;
    throw error;
  }
}

/** The refusal as a page. */
export const refusalDoc = (error: HttpError): Doc => ({
  title: error.title,
  blocks: [heading(1, `${error.statusCode} ${error.title}`), paragraph(error.details ?? "")],
});
