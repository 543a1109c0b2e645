// The worker thread of `untrustedFiles`: reads the tree's manifest and tests every file of it.
import { parentPort, workerData } from "node:worker_threads";
import { readManifest } from "./manifest.js";
import { type TrustRequest, untrustedPaths } from "./trust-test.js";

const request = workerData as TrustRequest;
const read = readManifest(request.manifest);
// Another seal than the caller's: another manifest, whose files the caller does not describe.
parentPort?.postMessage(
  read && read.sealedAt === request.sealedAt
    ? untrustedPaths(request.root, read.manifest, request.sealedAt)
    : null,
);
