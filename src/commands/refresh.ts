// `velodata refresh`: one regeneration of the dynamic answers into an existing tree, for static hosting from cron.
import { publish } from "../publish/publish.js";
import { updateTree } from "../publish/update-tree.js";
import { assembleDataset } from "../source/dataset.js";
import { readStates, readStatic } from "../source/read-dataset.js";
import { type Output, reportProblems, terminalOutput } from "./output.js";

export interface RefreshOptions {
  source: string;
  state: string;
  out: string;
  now?: Date;
  output?: Output;
}

export async function refresh(options: RefreshOptions): Promise<{ files: number }> {
  const output = options.output ?? terminalOutput();
  const staticRead = await readStatic(options.source);
  reportProblems(staticRead.problems, output);
  const read = await readStates(staticRead, options.state);
  reportProblems(read.problems, output); // throws on errors: the tree stays as it was
  const dataset = assembleDataset(staticRead.source, read.states ?? new Map());
  const { release } = await publish(dataset, { generatedAt: options.now ?? new Date() });
  const stats = await updateTree(release, options.out);
  output.info(
    `refreshed ${options.out}: ${stats.files} of ${release.files.size} files changed (release ${release.id})`,
  );
  return { files: stats.files };
}
