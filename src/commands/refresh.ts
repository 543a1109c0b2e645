// `velodata refresh`: one regeneration of the dynamic answers into an existing tree, for static hosting from cron.
import { compressRelease } from "../publish/compress.js";
import { publish } from "../publish/publish.js";
import { type UpdateStats, updateTree } from "../tree/update-tree.js";
import { variantsOnDisk } from "../tree/variants-on-disk.js";
import { type Output, terminalOutput } from "./output.js";
import { readValidDataset } from "./read-source.js";

export interface RefreshOptions {
  source: string;
  state: string;
  out: string;
  /** As given to `build`, so that the OpenAPI document stays as it is. */
  baseUrl?: string;
  now?: Date;
  output?: Output;
}

export async function refresh(options: RefreshOptions): Promise<UpdateStats> {
  const output = options.output ?? terminalOutput();
  // Throws on any error in the source or the states: the tree stays as it was.
  const { dataset } = await readValidDataset(options.source, options.state, output);
  const published = await publish(dataset, {
    generatedAt: options.now ?? new Date(),
    baseUrl: options.baseUrl,
  });
  // Siblings of unchanged files are read back from the tree: only what changed is compressed.
  const release = await compressRelease(published.release, {
    budget: "refresh",
    previous: variantsOnDisk(published.release, options.out),
  });
  const stats = await updateTree(release, options.out);
  const notes = [
    stats.removed > 0 ? `${stats.removed} removed` : "",
    stats.verified
      ? "every file checked, as the previous update of this tree did not finish"
      : stats.repaired > 0
        ? `${stats.repaired} repaired (changed on disk since the last update)`
        : "",
  ].filter(Boolean);
  output.info(
    `refreshed ${options.out}: ${stats.files} of ${release.files.size} files changed` +
      `${notes.length > 0 ? `, ${notes.join(", ")}` : ""} (release ${release.id})`,
  );
  return stats;
}
