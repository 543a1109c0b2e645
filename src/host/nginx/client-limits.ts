// What one client may hold of the nginx deployment: how long its request's head and body may take to
// come, and how many requests one address may have in progress at once.

/**
 * Seconds a request's head may take to come whole, and a body between two reads: nginx's 60 s let a
 * client sending a byte now and then (slow-loris) hold a worker connection a minute. Every client
 * sends its head at once; 10 s leaves a slow mobile network room.
 */
export const CLIENT_TIMEOUT_SECONDS = 10;

/**
 * Requests one address may have in progress at once (HTTP/2: each stream). An answer takes
 * milliseconds, so a browser (6 connections) or an office behind one address stays well below;
 * one address holding hundreds (downloads read a byte at a time) no longer takes every
 * worker connection.
 */
export const CONCURRENT_PER_ADDRESS = 32;

/** The http-level zone counting each address's requests (none without a limit). */
export const addressZoneLines = (n: string, perAddress: number): string =>
  perAddress === 0
    ? "# No limit of requests in progress per address (--max-concurrent-per-address 0)."
    : `# Requests in progress per client address (160,000 addresses at once in 10 MB: a full zone would
# refuse every new one).
limit_conn_zone $binary_remote_addr zone=${n}_addresses:10m;`;

/** The server's lines: the timeouts, and the limit per address (its 429 sent to a JSON page). */
export function clientLimitLines(n: string, timeoutSeconds: number, perAddress: number): string {
  const lines = [
    "# A request head must come whole within this, a body without a pause this long, or nginx",
    "# closes the connection without an answer: a client sending a byte now and then (slow-loris)",
    "# holds it seconds, not nginx's minute. On a port shared with another default server (Debian's",
    "# default site), that server's timeouts hold until the Host is read: see docs/deploying.md.",
    `client_header_timeout ${timeoutSeconds}s;`,
    `client_body_timeout ${timeoutSeconds}s;`,
  ];
  if (perAddress > 0)
    lines.push(
      `# At most ${perAddress} requests in progress per client address: past them, a JSON 429.`,
      `limit_conn ${n}_addresses ${perAddress};`,
      "limit_conn_status 429;",
    );
  return lines.map((line) => `    ${line}`).join("\n");
}
