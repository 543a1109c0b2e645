// The public base URL assumed when none is given: a module of its own, so that the command line
// can name it without loading the renderers.

/** Where `velodata build` and `refresh` say the API is when no --base-url is given. */
export const DEFAULT_BASE_URL = "http://127.0.0.1:8080";

/**
 * Whether a URL names the machine it is read on (`localhost`, a loopback address), or no machine
 * (`0.0.0.0`): every consumer's link would lead to its own.
 */
export function isLoopback(url: string): boolean {
  const host = URL.canParse(url) ? new URL(url).hostname : "";
  return (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    /^127\./.test(host) ||
    host === "[::1]" ||
    host === "0.0.0.0" ||
    host === "[::]"
  );
}
