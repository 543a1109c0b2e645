// What each extension of the tree's files is, from the route table: a static host that types files
// by their name (nginx's `types`, `velodata preview`) sends the types the API sends.
import type { AnyRoute } from "./route.js";
import { fileOf } from "./routes.js";

/** Extension (no dot) → content type of the files served from the tree, refusing two types for one. */
export function typesOf(routes: readonly AnyRoute[]): Map<string, string> {
  const types = new Map<string, string>();
  for (const route of routes) {
    if (route.served !== "release") continue;
    const file = fileOf(route.path);
    const extension = file.slice(file.lastIndexOf(".") + 1);
    const known = types.get(extension);
    if (known && known !== route.contentType)
      throw new Error(`.${extension} files are both ${known} and ${route.contentType}`);
    types.set(extension, route.contentType);
  }
  return types;
}
