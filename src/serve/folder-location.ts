// Where a folder's page asked without its slash (`/docs`) is sent: relative to the request, so
// that behind a proxy taking a prefix off (`/velo/docs` asked), the client stays under the prefix.

/**
 * The `Location` of the 301: the folder's last segment with the slash added, the query kept
 * (`./docs/?deepLink=1`), which a client resolves against the URL it asked for. An absolute path
 * (`/docs/`) led a client of `https://example.org/velo/docs` to the host's own `/docs/`.
 */
export const folderLocation = (segments: readonly string[], query: string): string =>
  `./${encodeURIComponent(segments.at(-1) ?? "")}/${query}`;
