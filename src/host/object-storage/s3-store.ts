// The ObjectStore over the official AWS SDK v3: any S3-API store (AWS, R2, GCS, MinIO), errors told plainly.
import {
  DeleteObjectCommand,
  GetObjectCommand,
  NoSuchKey,
  PutObjectCommand,
  paginateListObjectsV2,
  S3Client,
  type S3ClientConfig,
} from "@aws-sdk/client-s3";
import { UserError } from "../../errors.js";
import type { ListedObject, ObjectStore } from "./object-store.js";

export interface S3Location {
  bucket: string;
  /** No leading or trailing slash; empty for the bucket's root. */
  prefix: string;
}

export interface S3StoreOptions extends S3Location {
  /** A non-AWS store's URL; addressing is then path-style (`ENDPOINT/BUCKET/KEY`). */
  endpoint?: string;
  region?: string;
  /** Milliseconds to connect, and without a byte either way; default STORE_TIMEOUTS. */
  timeouts?: { connect: number; silent: number };
}

/**
 * The SDK waits for ever by default: a store that takes the connection and never answers would
 * hang `publish`, and with it (under cron's flock) every later minute's refresh. Silence, not the
 * whole request, is timed: a 700 MB list on a slow link takes minutes, each second of it busy.
 * The SDK tries a request three times, so a silent store is said after ~1.5 minutes.
 */
export const STORE_TIMEOUTS = { connect: 10_000, silent: 30_000 };

/** `s3://BUCKET/PREFIX` → bucket and prefix. */
export function parseS3Url(url: string): S3Location {
  // `user:password@` (a secret may hold a `/`): refused, never echoed, as it must not reach a log.
  // An `@` with no `:` before it is a key's own character (`s3://bucket/team@2024`).
  if (/^[^@]*:[^@]*@/.test(url.replace(/^s3:\/\//, "")))
    throw new UserError("--to must not hold credentials (user:password@)", [
      "give them as AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, as any AWS client reads them",
    ]);
  // Refused unread too: a query is where a presigned URL's signature and session token go, and
  // in a key a CDN would take it for its own query, never find the object.
  if (/[?#]/.test(url))
    throw new UserError("--to must read s3://BUCKET/PREFIX, with no query (?) or fragment (#)", [
      "the credentials go in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN), as any AWS client reads them",
    ]);
  const match = /^s3:\/\/([^/]+)(?:\/(.*))?$/.exec(url);
  if (!match) throw new UserError(`--to must read s3://BUCKET/PREFIX, got "${url}"`);
  // S3's rule (GCS also takes `_`): anything else would be sent to the store as a path.
  if (!/^[a-z0-9][a-z0-9._-]{1,61}[a-z0-9]$/.test(match[1] as string))
    throw new UserError(
      `--to ${url}: "${match[1]}" is no bucket name (3 to 63 lower-case letters, digits, dots and hyphens)`,
    );
  const prefix = (match[2] ?? "").replace(/^\/+|\/+$/g, "");
  // A key with such a part is no path a CDN asks for (it would normalise it), and some stores
  // refuse it with an error of their own.
  if (prefix.split("/").some((part) => part === "." || part === ".." || (part === "" && prefix)))
    throw new UserError(
      `--to ${url}: the prefix has an empty, "." or ".." part; write it as folder/folder`,
    );
  return { bucket: match[1] as string, prefix };
}

export function s3Store(options: S3StoreOptions): ObjectStore {
  // The notice is about SDK versions to come; the ones this package pins support Node 20.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
  const timeouts = options.timeouts ?? STORE_TIMEOUTS;
  const config: S3ClientConfig = {
    requestHandler: { connectionTimeout: timeouts.connect, socketTimeout: timeouts.silent },
  };
  if (options.region) config.region = options.region;
  if (options.endpoint) {
    config.endpoint = options.endpoint;
    config.forcePathStyle = true;
    config.region ??= process.env.AWS_REGION ?? "us-east-1";
    // Stores other than AWS do not all accept the checksums the SDK now adds to every request.
    config.requestChecksumCalculation = "WHEN_REQUIRED";
  }
  const client = new S3Client(config);
  refuseListingsNotXml(client);
  // The store and prefix as errors name them, the endpoint without any credentials.
  const where =
    `s3://${options.bucket}${options.prefix ? `/${options.prefix}` : ""}` +
    (options.endpoint ? ` at ${endpointShown(options.endpoint)}` : "");
  const Bucket = options.bucket;
  const failing = (doing: string) => (cause: unknown) => {
    throw storeError(cause, `${doing} (${where})`, options.endpoint);
  };

  return {
    where,
    async list(prefix) {
      const listed = new Map<string, ListedObject>();
      const pages = paginateListObjectsV2(
        { client },
        { Bucket, ...(prefix ? { Prefix: `${prefix}/` } : {}) },
      );
      try {
        for await (const page of pages)
          for (const object of page.Contents ?? [])
            if (object.Key !== undefined)
              listed.set(object.Key, { etag: object.ETag ?? "", size: object.Size ?? 0 });
      } catch (cause) {
        failing("cannot list the objects")(cause);
      }
      return listed;
    },
    async readText(Key) {
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket, Key }));
        return (await answer.Body?.transformToString("utf8")) ?? "";
      } catch (cause) {
        if (cause instanceof NoSuchKey) return null;
        return failing(`cannot read ${Key}`)(cause);
      }
    },
    async put(Key, body, headers) {
      const answer = await client
        .send(
          new PutObjectCommand({
            Bucket,
            Key,
            Body: body,
            ContentLength: body.byteLength,
            ContentType: headers.contentType,
            CacheControl: headers.cacheControl,
            ...(headers.contentDisposition
              ? { ContentDisposition: headers.contentDisposition }
              : {}),
            ...(headers.contentEncoding ? { ContentEncoding: headers.contentEncoding } : {}),
          }),
        )
        .catch(failing(`cannot upload ${Key}`));
      // Any S3 API tags what it stored; a web server that answers 200 to anything does not, and
      // the upload would be counted done when nothing was stored.
      if (!answer.ETag)
        throw new UserError(
          `cannot upload ${Key} (${where}): the answer has no ETag, which an S3 API always gives`,
          ["check --endpoint: the store's API address, not a website in front of it"],
        );
      return answer.ETag;
    },
    async delete(Key) {
      await client
        .send(new DeleteObjectCommand({ Bucket, Key }))
        .catch(failing(`cannot delete ${Key}`));
    },
  };
}

/**
 * A listing is XML from any S3 API; a web server answering 200 to everything (a website or a
 * console given as --endpoint) sends a page, which the SDK reads as an empty listing: a dry run
 * would then plan every upload against a store that is not there. Failed here as the SDK fails an
 * error page, so that storeError says what answered.
 */
function refuseListingsNotXml(client: S3Client): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      if (context.commandName !== "ListObjectsV2Command") return result;
      const response = result.response as { statusCode?: number; headers?: Record<string, string> };
      // Without a type it may be a store's terse answer: only another type is refused.
      const type = response.headers?.["content-type"] ?? "";
      if (type === "" || isXml(type)) return result;
      throw Object.assign(new Error(`a listing answered as ${type}`), {
        $metadata: { httpStatusCode: response.statusCode },
        $response: { headers: { "content-type": type } },
      });
    },
    { step: "deserialize", name: "velodataListingIsXml" },
  );
}

/** An S3 API's XML (`application/xml`, `text/xml`), not a page that also names XML (XHTML). */
const isXml = (contentType: string): boolean => /^(application|text)\/xml\b/i.test(contentType);

/** The endpoint without any user:password someone put in it. */
function endpointShown(endpoint: string): string {
  try {
    const url = new URL(endpoint);
    url.username = "";
    url.password = "";
    return url.origin + url.pathname.replace(/\/$/, "");
  } catch {
    return "the --endpoint given";
  }
}

const CREDENTIALS_REFUSED = new Set([
  "InvalidAccessKeyId",
  "SignatureDoesNotMatch",
  "InvalidToken",
  "ExpiredToken",
  "AccessDenied",
]);
const NETWORK = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "ECONNRESET", "ETIMEDOUT"]);

/** An SDK failure as the user's or the system's problem, with what to do; never a credential in it. */
function storeError(cause: unknown, doing: string, endpoint?: string): UserError {
  const error = cause as {
    name?: string;
    code?: string;
    message?: string;
    Region?: string;
    $metadata?: { httpStatusCode?: number };
    $response?: { headers?: Record<string, string | undefined> };
  };
  const name = error.name ?? "";
  const tell = (reason: string, fix: string) =>
    new UserError(`${doing}: ${reason}`, [fix], { cause });
  const status = error.$metadata?.httpStatusCode;
  const type = error.$response?.headers?.["content-type"] ?? "";
  // An S3 API answers its errors in XML (or with no body, to HEAD): a web page or JSON is another
  // server's, the SDK's words for it ("UnknownError", "Deserialization error") none of the user's.
  if (status && type && !isXml(type))
    return tell(
      `what answered is not an S3 API (HTTP ${status}, ${type.split(";")[0]})`,
      "check --endpoint: the store's API address, not its console, website or a CDN in front",
    );
  const region = error.$response?.headers?.["x-amz-bucket-region"] ?? error.Region;
  if ((name === "PermanentRedirect" || name === "AuthorizationHeaderMalformed") && region)
    return tell(
      `the bucket is in region ${region}, not the one asked`,
      `pass --region ${region} (or set AWS_REGION=${region})`,
    );
  const endpointPath = endpoint && URL.canParse(endpoint) ? new URL(endpoint).pathname : "/";
  if ((name === "NoSuchBucket" || name === "NoSuchKey") && endpointPath !== "/")
    return tell(
      `the store knows no such bucket or key under --endpoint's path ${endpointPath}`,
      "give --endpoint as the store's address alone: the bucket goes in --to s3://BUCKET/PREFIX",
    );
  if (name === "NoSuchBucket")
    return tell("the bucket does not exist", "create it, or correct the bucket in --to");
  if (CREDENTIALS_REFUSED.has(name))
    return tell(
      `the store refused the credentials (${name})`,
      "check AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN) or AWS_PROFILE, and the key's permissions on the bucket",
    );
  if (name === "CredentialsProviderError")
    return process.env.AWS_PROFILE
      ? tell(
          `no credentials for the profile AWS_PROFILE names (${process.env.AWS_PROFILE})`,
          "check that profile in ~/.aws/credentials or ~/.aws/config, or unset AWS_PROFILE",
        )
      : tell(
          "no credentials found",
          "set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE",
        );
  if (/region is missing/i.test(error.message ?? ""))
    return tell("no region given", "set AWS_REGION or pass --region");
  if (NETWORK.has(error.code ?? ""))
    return tell(
      `the store cannot be reached (${error.code})`,
      endpoint
        ? "check --endpoint, the network, and that the store is running"
        : "check the network, and the region (--region or AWS_REGION)",
    );
  // OpenSSL's "wrong version number": a TLS handshake answered in plain HTTP.
  if (error.code === "EPROTO" || /SSL routines|wrong version number/.test(error.message ?? ""))
    return tell(
      "the TLS handshake failed (does the store speak plain http on that port?)",
      "check --endpoint's scheme: http:// for a store without TLS",
    );
  if (name === "TimeoutError")
    return tell(
      "the store did not answer in time (connected but silent, or no connection made)",
      "check --endpoint (an S3 API's address?), the network, and that the store is running",
    );
  return tell(
    `the store answered ${name || "an error"}${status ? ` (HTTP ${status})` : ""}: ${error.message ?? String(cause)}`,
    "check --endpoint and the store; nothing was lost: a run that works completes what this one started",
  );
}
