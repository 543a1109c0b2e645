// The public base URL assumed when none is given: a module of its own, so that the command line
// can name it without loading the renderers.

/** Where `velodata build` and `refresh` say the API is when no --base-url is given. */
export const DEFAULT_BASE_URL = "http://127.0.0.1:8080";
