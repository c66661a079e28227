/**
 * A request the contract answers with an error: its status, a short reason and what to change.
 * Domain code throws it; each host renders it in its own shape (the API's Error body, the text
 * host's page in the request's rendering).
 */
export class HttpError extends Error {
  readonly statusCode: number;
  readonly details: string | undefined;
  constructor(statusCode: number, message: string, details?: string) {
    super(message);
    this.statusCode = statusCode;
    this.details = details;
  }
}
