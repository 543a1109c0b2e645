// The process of `removeDetached`: removes the folders named on its command line, as a build's
// own threads would have, after the build that started it has exited. At the lowest priority (its
// worker threads, started after, inherit it): housekeeping, it leaves the cores to what runs
// beside it (the build or the refresh that started it, a server).
import { setPriority } from "node:os";
import { removeInBackground } from "./remove-in-background.js";

try {
  setPriority(19);
} catch {}
await removeInBackground(process.argv.slice(2));
