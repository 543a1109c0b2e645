// The worker thread of `removeInBackground`: removes the folders it is given, one after the other.
import { workerData } from "node:worker_threads";
import { removeTree } from "./remove-tree.js";

for (const folder of workerData as string[]) removeTree(folder);
