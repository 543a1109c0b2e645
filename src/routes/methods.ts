// The methods every path answers, and how long a browser may keep a preflight's answer: the
// server sends them and the OpenAPI document declares them, from here.
export const ALLOWED_METHODS = "GET, HEAD, OPTIONS";
export const PREFLIGHT_MAX_AGE = 86400;
