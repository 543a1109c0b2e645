// The worker thread of publishStaticOffThread: renders the static answers of the records it is
// given into shared chunks and hands them back (the chunks are shared, not copied).
import { parentPort, workerData } from "node:worker_threads";
import { publishStatic } from "./publish.js";
import { encodeFor, type StaticJob, type StaticReply } from "./static-off-thread.js";

const { dataset, options, encoding } = workerData as StaticJob;
let reply: StaticReply;
try {
  const files = await publishStatic(
    { ...dataset, states: new Map() },
    { ...options, encode: encodeFor(encoding) },
  );
  reply = { files: [...files] };
} catch (cause) {
  reply = { error: cause instanceof Error ? cause.message : String(cause) };
}
parentPort?.postMessage(reply);
