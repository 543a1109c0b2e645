// The worker thread of `zip`: zips the entries it is given and hands the zip back, moved.
import { parentPort, workerData } from "node:worker_threads";
import { ownCopy, type ZipEntry, zipHere } from "./zip-here.js";

const { entries, date } = workerData as { entries: ZipEntry[]; date?: Date };
const chunks = await zipHere(entries, date);
const zipped = ownCopy(
  chunks,
  chunks.reduce((size, chunk) => size + chunk.byteLength, 0),
);
parentPort?.postMessage(zipped, [zipped.buffer as ArrayBuffer]);
