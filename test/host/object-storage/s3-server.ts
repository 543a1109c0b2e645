// A real S3-API server (s3rver) on loopback for the publishing tests, with an SDK client and its event log.

import { gunzipSync } from "node:zlib";
import {
  GetObjectCommand,
  HeadObjectCommand,
  type HeadObjectCommandOutput,
  ListObjectsV2Command,
  S3Client,
} from "@aws-sdk/client-s3";
import S3rver from "s3rver";
import { tempDir } from "../../helpers.js";

export const BUCKET = "velodata";
// s3rver's only credentials; the publisher reads them from the environment like any AWS client.
export const CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

export interface S3Event {
  name: "put" | "delete";
  key: string;
}

export interface TestS3 {
  endpoint: string;
  client: S3Client;
  /** Every object created or deleted, in the order the server did it. */
  events: S3Event[];
  onEvent(listener: (event: S3Event) => void): void;
  /** Every key (under `prefix`, when given) and its ETag. */
  keys(prefix?: string): Promise<Map<string, string>>;
  /** The bytes a client reads, decoded when the object is stored gzip-encoded (the tree's `.gz` sibling). */
  bytes(key: string): Promise<Buffer>;
  /** The bytes as stored, encoded or not. */
  stored(key: string): Promise<Buffer>;
  head(key: string): Promise<HeadObjectCommandOutput>;
  close(): Promise<void>;
}

/**
 * startS3, with the environment's AWS credentials set to its own: the CLI reads its credentials as
 * any AWS client does, and runCli passes the environment on.
 */
export async function startS3WithCredentials(): Promise<TestS3> {
  const s3 = await startS3();
  process.env.AWS_ACCESS_KEY_ID = CREDENTIALS.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = CREDENTIALS.secretAccessKey;
  return s3;
}

export async function startS3(): Promise<TestS3> {
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory: await tempDir("velodata-s3-"),
    configureBuckets: [{ name: BUCKET }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = "true";
  const client = new S3Client({
    endpoint,
    forcePathStyle: true,
    region: "us-east-1",
    credentials: CREDENTIALS,
  });
  const events: S3Event[] = [];
  const listeners: ((event: S3Event) => void)[] = [];
  server.on("event", (event) => {
    for (const record of event.Records) {
      const name = record.eventName.startsWith("ObjectRemoved") ? "delete" : "put";
      const happened: S3Event = { name, key: decodeURIComponent(record.s3.object.key) };
      events.push(happened);
      for (const listener of listeners) listener(happened);
    }
  });
  return {
    endpoint,
    client,
    events,
    onEvent: (listener) => listeners.push(listener),
    async keys(prefix) {
      const keys = new Map<string, string>();
      let token: string | undefined;
      do {
        // One prefix at a time: each test reads its own objects only.
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix, ContinuationToken: token }),
        );
        for (const object of page.Contents ?? []) keys.set(object.Key ?? "", object.ETag ?? "");
        token = page.NextContinuationToken;
      } while (token);
      return keys;
    },
    async bytes(key) {
      const answer = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
      const stored = Buffer.from((await answer.Body?.transformToByteArray()) ?? []);
      return answer.ContentEncoding === "gzip" ? gunzipSync(stored) : stored;
    },
    async stored(key) {
      const answer = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
      return Buffer.from((await answer.Body?.transformToByteArray()) ?? []);
    },
    head: (key) => client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key })),
    async close() {
      client.destroy();
      await server.close();
    },
  };
}
