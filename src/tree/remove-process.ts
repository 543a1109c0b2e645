// The process of `removeDetached`: removes the folders named on its command line, as a build's
// own threads would have, after the build that started it has exited.
import { removeInBackground } from "./remove-in-background.js";

await removeInBackground(process.argv.slice(2));
