// Every file under a folder, as paths relative to it (`/`-separated), for checking a tree against a release.
import { readdirSync } from "node:fs";
import { join } from "node:path";

export function filesUnder(root: string, prefix = "", files: string[] = []): string[] {
  for (const entry of readdirSync(join(root, prefix), { withFileTypes: true })) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    // Gathered into one array: spreading a folder of 100,000 names into push() overflows the stack.
    if (entry.isDirectory()) filesUnder(root, path, files);
    else files.push(path);
  }
  return files;
}
