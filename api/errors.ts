/**
 * The one way a request fails: throw an ApiError anywhere; api/middleware/envelope.ts turns it into the spec's
 * envelope (2.7) or, for the issue operation, into whatever `body` the error carries (7.2).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: {
      /** Field errors: `{field: [messages]}` (request validation). */
      errors?: Record<string, string[]>;
      /** A complete body that replaces the envelope (issue-operation errors of spec 7.2/7.3). */
      body?: Record<string, unknown>;
      headers?: Record<string, string>;
      data?: unknown;
    } = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const badRequest = (message: string, errors?: Record<string, string[]>) =>
  new ApiError(422, message, { errors });
export const notFound = (message: string) => new ApiError(404, message);
export const forbidden = (message: string) => new ApiError(403, message);
export const unauthorized = (message: string) =>
  new ApiError(401, message, { headers: { 'WWW-Authenticate': 'Bearer' } });
export const conflict = (message: string, data?: unknown) => new ApiError(409, message, { data });
