// The source pipeline as commands use it: print the warnings, stop on errors, say the notes, hand
// back the Dataset.
import type { Dataset } from "../source/dataset.js";
import { readDataset, type StaticRead } from "../source/read-dataset.js";
import { type Output, type ProblemsShown, reportProblems } from "./output.js";

export async function readValidDataset(
  source: string,
  state: string | undefined,
  output: Output,
  consequence?: string | null,
  shown?: ProblemsShown,
): Promise<{ dataset: Dataset; warnings: number; staticRead: StaticRead }> {
  const { dataset, problems, staticRead } = await readDataset(source, state);
  reportProblems(problems, output, consequence, shown); // throws when any problem is an error
  if (!dataset || !staticRead) throw new Error("readDataset returned no dataset and no error");
  for (const note of staticRead.notes) output.warn(note);
  return { dataset, warnings: problems.length, staticRead };
}
