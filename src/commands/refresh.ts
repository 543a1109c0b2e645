// `velodata refresh`: one regeneration of the dynamic answers into an existing tree, for static hosting from cron.
import { compressRelease } from "../publish/compress.js";
import { DEFAULT_BASE_URL, publish } from "../publish/publish.js";
import { staticSourceFingerprint } from "../source/source-fingerprint.js";
import { staticSourceUpdatedAt } from "../source/source-time.js";
import { readTree } from "../tree/read-tree.js";
import { type UpdateStats, updateTree } from "../tree/update-tree.js";
import { variantsOnDisk } from "../tree/variants-on-disk.js";
import { incrementalRelease, type Made, saveRefreshState } from "./incremental-refresh.js";
import { type Output, terminalOutput } from "./output.js";
import { readValidDataset } from "./read-source.js";

export interface RefreshOptions {
  source: string;
  state: string;
  out: string;
  /** As given to `build`, so that the OpenAPI document and the GBFS files stay as they are. */
  baseUrl?: string;
  now?: Date;
  output?: Output;
}

export async function refresh(options: RefreshOptions): Promise<UpdateStats> {
  const output = options.output ?? terminalOutput();
  const inputs = {
    out: options.out,
    state: options.state,
    baseUrl: options.baseUrl ?? DEFAULT_BASE_URL,
    // Before reading: a source edited meanwhile then reads as changed next time, never as unchanged.
    fingerprint: staticSourceFingerprint(options.source),
    generatedAt: options.now ?? new Date(),
  };
  // The tree as the last run left it, read once for the fast path, the siblings to reuse and the
  // update (which reads it again under its lock only if another writer changed it meanwhile).
  const tree = readTree(options.out);
  // Throws on any error in the source or the states: the tree stays as it was.
  const incremental = await incrementalRelease(inputs, tree, output);
  const made = incremental ?? (await fullRelease(options, inputs, output));
  // Siblings of unchanged files are read back from the tree: only what changed is compressed.
  const release = await compressRelease(made.release, {
    budget: "refresh",
    previous: variantsOnDisk(made.release, tree),
  });
  const stats = await updateTree(release, options.out, { tree });
  saveRefreshState(made, inputs);
  const notes = [
    stats.removed > 0 ? `${stats.removed} removed` : "",
    stats.verified
      ? "every file checked, as the previous update of this tree did not finish"
      : stats.repaired > 0
        ? `${stats.repaired} repaired (changed on disk since the last update)`
        : "",
    incremental ? "static source unchanged: only the changed stations rendered" : "",
  ].filter(Boolean);
  output.info(
    `refreshed ${options.out}: ${stats.files} of ${release.files.size} files changed` +
      `${notes.length > 0 ? `, ${notes.join(", ")}` : ""} (release ${release.id})`,
  );
  return stats;
}

/** Everything read and rendered again: the first refresh, or the static source changed. */
async function fullRelease(
  options: RefreshOptions,
  inputs: { baseUrl: string; generatedAt: Date },
  output: Output,
): Promise<Made> {
  const { dataset, staticRead } = await readValidDataset(options.source, options.state, output);
  const { release, cache } = await publish(dataset, {
    generatedAt: inputs.generatedAt,
    baseUrl: inputs.baseUrl,
    staticUpdatedAt: await staticSourceUpdatedAt(options.source),
  });
  return { release, dataset, stations: cache, staticRead };
}
