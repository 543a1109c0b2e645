// The methods every path answers, and how long a browser may keep a preflight's answer: the
// server sends them and the OpenAPI document declares them, from here.
export const ALLOWED_METHODS = "GET, HEAD, OPTIONS";
export const PREFLIGHT_MAX_AGE = 86400;
/**
 * Any request header a page sends (If-None-Match for its own revalidation, a tracing header…):
 * the API is public data without credentials, where `*` means any.
 */
export const PREFLIGHT_ALLOWED_HEADERS = "*";
/** Response headers a page's script may read beyond the CORS-safelisted ones (Cache-Control, Content-Type…). */
export const EXPOSED_HEADERS = "ETag, Retry-After, Content-Disposition, Content-Range";
/**
 * Sent with every answer: a browser takes each answer as the type it says, never as the type its
 * bytes look like (a JSON error quoting a request as HTML). Security scanners ask for it.
 */
export const NO_SNIFF = { name: "X-Content-Type-Options", value: "nosniff" } as const;
