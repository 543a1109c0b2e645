// The worker thread of `zip`: zips the entries it is given and hands the zip back, moved.
import { parentPort, workerData } from "node:worker_threads";
import { type ZipEntry, zipHere } from "./zip-here.js";

const zipped = Buffer.concat(await zipHere(workerData as ZipEntry[]));
// Moved only if it is a buffer of its own (a zip this big never sits in Node's shared pool).
const own =
  zipped.byteOffset === 0 && zipped.buffer.byteLength === zipped.byteLength
    ? zipped
    : Buffer.from(zipped);
parentPort?.postMessage(own, [own.buffer as ArrayBuffer]);
