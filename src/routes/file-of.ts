// Where an answer lives in the tree: a URL path's file, with nothing else of the route table.

/**
 * Where an answer lives in the tree, relative to its root. An API answer is a `.json` file at its
 * URL path (a path cannot be both a file and a folder: `vls/v3/stations.json` sits beside the
 * folder `vls/v3/stations/`); a static server maps the extension-less URL to it. A path that
 * already ends in an extension keeps its name, and a folder's own page is its `index.html`.
 */
export function fileOf(urlPath: string): string {
  const relative = urlPath.replace(/^\/+/, "");
  if (relative === "" || relative.endsWith("/")) return `${relative}index.html`;
  const last = relative.slice(relative.lastIndexOf("/") + 1);
  return last.includes(".") ? relative : `${relative}.json`;
}
