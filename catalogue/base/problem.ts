/**
 * A request the contract answers with an error: its status, a short reason and what to change.
 * Domain code throws it; each host renders it in its own shape (the API's Error body, the text
 * host's page in the request's rendering).
 */
import { ERRORS, isErrorTitle, titleOfStatus, type ErrorTitle, type StatusOf } from "./error-catalogue.ts";

/** `title` is one of the error catalogue's (error-catalogue.ts), with the status it goes with. */
export class HttpError<T extends ErrorTitle = ErrorTitle> extends Error {
  readonly statusCode: StatusOf<T>;
  readonly title: T;
  readonly details: string | undefined;
  constructor(statusCode: StatusOf<T>, title: T, details?: string) {
    super(title);
    this.statusCode = statusCode;
    this.title = title;
    this.details = details;
  }
}

/** `instanceof HttpError` narrows to HttpError<any>; this narrows to an HttpError of any catalogue title. */
export const isHttpError = (error: unknown): error is HttpError => error instanceof HttpError;

/**
 * An error known only by its status (and perhaps a title from elsewhere: an SDK, the worker thread):
 * the catalogue's title when the given one is not in it, and that title's status.
 */
export function httpErrorOf(status: number, title?: string, details?: string): HttpError {
  const known: ErrorTitle =
    title !== undefined && isErrorTitle(title) && ERRORS[title].status === status ? title : titleOfStatus(status);
  return new HttpError<ErrorTitle>(ERRORS[known].status, known, details);
}
