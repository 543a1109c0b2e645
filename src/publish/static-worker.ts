// The worker thread of publishStaticOffThread: renders the static answers of the records it is
// given into shared chunks and hands them back (the chunks are shared, not copied).
import { parentPort, workerData } from "node:worker_threads";
import { encodedInChunks } from "./encoded-together.js";
import { publishStatic } from "./publish.js";
import type { StaticJob, StaticReply } from "./static-off-thread.js";

const { dataset, options } = workerData as StaticJob;
let reply: StaticReply;
try {
  const files = await publishStatic(
    { ...dataset, states: new Map() },
    { ...options, encode: encodedInChunks() },
  );
  reply = { files: [...files] };
} catch (cause) {
  reply = { error: cause instanceof Error ? cause.message : String(cause) };
}
parentPort?.postMessage(reply);
