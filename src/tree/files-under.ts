// Every file under a folder, as paths relative to it (`/`-separated), for checking a tree against a release.
import { readdirSync } from "node:fs";
import { join } from "node:path";

export function filesUnder(root: string, prefix = ""): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(join(root, prefix), { withFileTypes: true })) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) files.push(...filesUnder(root, path));
    else files.push(path);
  }
  return files;
}
