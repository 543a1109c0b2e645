// The `velodata nginx` command line that made a configuration, for its header: every option given, quoted for a shell.
import { resolve } from "node:path";
import type { NginxCommandOptions } from "./nginx.js";

// A word a POSIX shell reads as itself, unquoted.
const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const CONTROL = /[\u0000-\u001f\u007f]/;

/** `word` as a shell reads it back; a control character escaped (`$'…'`), never raw in the line. */
export function shellQuote(word: string): string {
  if (PLAIN_WORD.test(word)) return word;
  if (!CONTROL.test(word)) return `'${word.replaceAll("'", "'\\''")}'`;
  const escaped = [...word]
    .map((character) =>
      CONTROL.test(character)
        ? `\\x${character.charCodeAt(0).toString(16).padStart(2, "0")}`
        : character === "\\" || character === "'"
          ? `\\${character}`
          : character,
    )
    .join("");
  return `$'${escaped}'`;
}

/** An option and its values as words, or none when it was not given. */
const option = (name: string, ...values: (string | number | undefined)[]): string[] => {
  const given = values.filter((value) => value !== undefined).map(String);
  return given.length === 0 ? [] : [name, ...given.map(shellQuote)];
};

/** A path given made absolute: the header's line is run again from anywhere (an upgrade's). */
const absolute = (path: string | undefined): string | undefined =>
  path === undefined ? undefined : resolve(path);

/** An access log's path made absolute (nginx reads a relative one from its prefix); `off` or a `syslog:` target as it is. */
export const absoluteLog = (log: string): string =>
  log === "off" || log.startsWith("syslog:") ? log : resolve(log);

/**
 * The command as given, each option in the order `velodata nginx --help` lists them, its paths
 * made absolute, the upstream as the origin it was read as (no credentials, no path: both are
 * refused).
 */
export function commandLineOf(options: NginxCommandOptions, upstream: URL): string {
  return [
    ...["velodata", "nginx"],
    ...option("--name", options.name),
    ...option("--tree", absolute(options.tree)),
    ...option("--upstream", upstream.origin),
    ...option("--listen", options.listen),
    ...option("--server-name", ...(options.serverName ?? [])),
    ...option("--tls-certificate", absolute(options.tlsCertificate)),
    ...option("--tls-key", absolute(options.tlsKey)),
    ...option("--nginx-version", options.nginxVersion),
    ...option("--cache-dir", absolute(options.cacheDir)),
    ...option("--key-cache", options.keyCache),
    ...option("--max-concurrent-per-address", options.maxConcurrentPerAddress),
    ...option("--refresh", options.refresh),
    ...option("--access-log", options.accessLog && absoluteLog(options.accessLog)),
    ...(options.brotli === false ? ["--no-brotli"] : []),
    ...option("--output", absolute(options.outputFile)),
  ].join(" ");
}
