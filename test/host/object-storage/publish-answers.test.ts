import { createServer as createHttpServer, type ServerResponse } from "node:http";
import { type AddressInfo, createServer } from "node:net";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UserError } from "../../../src/errors.js";
import type { ObjectStore } from "../../../src/host/object-storage/object-store.js";
import { publishAnswers } from "../../../src/host/object-storage/publish-answers.js";
import type {
  AnswerKind,
  PublishedAnswer,
} from "../../../src/host/object-storage/published-answer.js";
import { parseS3Url, s3Store } from "../../../src/host/object-storage/s3-store.js";
import { tempDir } from "../../helpers.js";
import { BUCKET, startS3WithCredentials, type TestS3 } from "./s3-server.js";

let s3: TestS3;
let store: ObjectStore;
beforeAll(async () => {
  s3 = await startS3WithCredentials();
  store = s3Store({ bucket: BUCKET, prefix: "", endpoint: s3.endpoint });
});
afterAll(() => s3.close());

const answer = (urlPath: string, kind: AnswerKind, text: string): PublishedAnswer => ({
  urlPath,
  kind,
  etag: `"${text}"`,
  contentType: "application/json",
  cacheControl: "public, max-age=60",
  read: async () => Buffer.from(text),
});

/** A store that fails every upload after the first `uploads`, as a run stopped part-way would. */
function failingAfter(uploads: number, inner: ObjectStore): ObjectStore {
  let count = 0;
  return {
    ...inner,
    async put(key, body, headers) {
      if (key.endsWith(".velodata-publish.json")) return inner.put(key, body, headers);
      if (++count > uploads) throw new Error("the network went away");
      return inner.put(key, body, headers);
    },
  };
}

describe("a store that takes the connection and never answers", () => {
  it("is said to be silent, in the end, instead of waiting for ever", async () => {
    const silent = createServer(() => {}); // holds every connection open, says nothing
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      const mute = s3Store({
        bucket: BUCKET,
        prefix: "",
        endpoint: `http://127.0.0.1:${port}`,
        timeouts: { connect: 500, silent: 300 },
      });
      const error = await mute.list("").catch((cause: unknown) => cause);
      expect(error).toBeInstanceOf(UserError);
      expect((error as UserError).message).toMatch(
        /^cannot list the objects \(s3:\/\/[^)]+\): the store did not answer in time/,
      );
    } finally {
      silent.close();
    }
  });
});

describe("parseS3Url", () => {
  it("refuses user:password@ even with a / in the secret, and takes an @ of a key's own", () => {
    for (const url of ["s3://AKID:s3cr3t@bucket/x", "s3://AKID:s3/cr3t@bucket/x"]) {
      const error = (() => {
        try {
          parseS3Url(url);
        } catch (cause) {
          return cause as UserError;
        }
        return undefined;
      })();
      expect(error?.message, url).toBe("--to must not hold credentials (user:password@)");
    }
    expect(parseS3Url("s3://bucket/team@2024")).toEqual({ bucket: "bucket", prefix: "team@2024" });
  });
});

describe("a store set up wrong", () => {
  /** What listing fails with, against a server answering every request with `answer`. */
  async function listingError(
    answer: (response: ServerResponse) => void,
    endpoint = (port: number) => `http://127.0.0.1:${port}`,
  ): Promise<UserError> {
    const server = createHttpServer((_, response) => answer(response));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const store = s3Store({ bucket: BUCKET, prefix: "", endpoint: endpoint(port) });
      const error = await store.list("").catch((cause: unknown) => cause);
      expect(error).toBeInstanceOf(UserError);
      return error as UserError;
    } finally {
      server.close();
    }
  }

  it("says what to check, not the SDK's words", async () => {
    const page = await listingError((response) => {
      response.writeHead(404, { "Content-Type": "text/html" }).end("<html>Not here</html>");
    });
    expect(page.message).toMatch(/: what answered is not an S3 API \(HTTP 404, text\/html\)$/);
    // A website answering 200 to anything: its page is no listing, though the SDK reads it as an
    // empty one.
    const welcome = await listingError((response) => {
      response.writeHead(200, { "Content-Type": "text/html" }).end("<html>Welcome</html>");
    });
    expect(welcome.message).toMatch(
      /^cannot list the objects \(s3:[^)]+\): what answered is not an S3 API \(HTTP 200, text\/html\)$/,
    );
    // XHTML names XML too, and is still a page.
    const xhtml = await listingError((response) => {
      response
        .writeHead(200, { "Content-Type": "application/xhtml+xml" })
        .end('<html xmlns="http://www.w3.org/1999/xhtml">Welcome</html>');
    });
    expect(xhtml.message).toMatch(
      /: what answered is not an S3 API \(HTTP 200, application\/xhtml\+xml\)$/,
    );
    const moved = await listingError((response) => {
      response
        .writeHead(301, { "Content-Type": "application/xml", "x-amz-bucket-region": "eu-west-3" })
        .end(
          "<Error><Code>PermanentRedirect</Code><Message>Use the right endpoint.</Message></Error>",
        );
    });
    expect([moved.message, moved.details]).toEqual([
      expect.stringMatching(/: the bucket is in region eu-west-3, not the one asked$/),
      ["pass --region eu-west-3 (or set AWS_REGION=eu-west-3)"],
    ]);
    // https:// to a store that speaks plain http.
    const plain = await listingError(
      (response) => response.end(),
      (port) => `https://127.0.0.1:${port}`,
    );
    expect(plain.message).toMatch(/: the TLS handshake failed \(does the store speak plain http/);
  });

  it("refuses to count an upload done that a web server answered 200 without storing it", async () => {
    const server = createHttpServer((_, response) => {
      response.writeHead(200, { "Content-Type": "text/html" }).end("<html>Welcome</html>");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const store = s3Store({ bucket: BUCKET, prefix: "", endpoint: `http://127.0.0.1:${port}` });
      const error = await store
        .put("vls/v3/contracts", Buffer.from("[]"), {
          contentType: "application/json",
          cacheControl: "public, max-age=60",
        })
        .catch((cause: unknown) => cause);
      expect(error).toBeInstanceOf(UserError);
      expect((error as UserError).message).toMatch(
        /the answer has no ETag, which an S3 API always gives$/,
      );
    } finally {
      server.close();
    }
  });

  it("names a bucket put in --endpoint, and a profile that does not exist", async () => {
    const inEndpoint = s3Store({
      bucket: BUCKET,
      prefix: "",
      endpoint: `${s3.endpoint}/${BUCKET}`,
    });
    const error = await inEndpoint.list("").catch((cause: unknown) => cause);
    expect((error as UserError).details).toEqual([
      "give --endpoint as the store's address alone: the bucket goes in --to s3://BUCKET/PREFIX",
    ]);
    const saved = { ...process.env };
    delete process.env.AWS_ACCESS_KEY_ID;
    delete process.env.AWS_SECRET_ACCESS_KEY;
    process.env.AWS_PROFILE = "no-such-profile";
    process.env.AWS_SHARED_CREDENTIALS_FILE = join(await tempDir(), "none");
    process.env.AWS_CONFIG_FILE = join(await tempDir(), "none");
    try {
      const store = s3Store({ bucket: BUCKET, prefix: "", endpoint: s3.endpoint });
      const missing = await store.list("").catch((cause: unknown) => cause);
      expect((missing as UserError).message).toMatch(
        /: no credentials for the profile AWS_PROFILE names \(no-such-profile\)$/,
      );
    } finally {
      process.env = saved;
    }
  });
});

describe("publishAnswers against an S3 server", () => {
  it("stores the gzip variant with Content-Encoding: gzip, and its headers", async () => {
    const text = '{"stations":[]}';
    const gzip = gzipSync(text);
    await publishAnswers(
      [
        {
          ...answer("/gz/gbfs.json", "discovery", text),
          cacheControl: "public, max-age=3600",
          variants: [{ encoding: "gzip", etag: '"gz"', read: async () => gzip }],
        },
      ],
      { store, prefix: "gz" },
    );
    const head = await s3.head("gz/gz/gbfs.json");
    expect(head.ContentType).toBe("application/json");
    expect(head.CacheControl).toBe("public, max-age=3600");
    expect(head.ContentEncoding).toBe("gzip");
    expect(gunzipSync(await s3.stored("gz/gz/gbfs.json")).toString()).toBe(text);
  });

  it("a run failing after some uploads leaves whole old or new bytes; the next run completes it", async () => {
    const prefix = "stop";
    const paths = Array.from({ length: 10 }, (_, index) => `/s/${index}`);
    const old = [...paths.map((path) => answer(path, "answer", `old ${path}`))];
    old.push(answer("/s", "list", "old list"));
    await publishAnswers(old, { store, prefix });

    const next = [...paths.map((path) => answer(path, "answer", `new ${path}`))];
    next.push(answer("/s", "list", "new list"));
    await expect(
      publishAnswers(next, { store: failingAfter(4, store), prefix, concurrency: 1 }),
    ).rejects.toThrow("the network went away");
    const texts = await Promise.all(
      ["/s", ...paths].map(async (path) => (await s3.bytes(`${prefix}${path}`)).toString()),
    );
    expect(texts.filter((text) => text.startsWith("new"))).toHaveLength(4);
    expect(texts[0]).toBe("old list"); // the list waits for all its answers

    const completed = await publishAnswers(next, { store, prefix });
    expect(completed.uploaded).toBe(11);
    for (const item of next)
      expect((await s3.bytes(`${prefix}${item.urlPath}`)).toString()).toBe(
        Buffer.from(await item.read()).toString(),
      );
    expect((await publishAnswers(next, { store, prefix })).uploaded).toBe(0);
  });

  it("a release back to the old answers after a stopped run restores them (the receipt is not fooled)", async () => {
    const prefix = "revert";
    const old = [answer("/a", "answer", "old a"), answer("/b", "answer", "old b")];
    await publishAnswers(old, { store, prefix });
    const next = [answer("/a", "answer", "new a"), answer("/b", "answer", "new b")];
    await expect(
      publishAnswers(next, { store: failingAfter(1, store), prefix, concurrency: 1 }),
    ).rejects.toThrow();
    expect((await s3.bytes("revert/a")).toString()).toBe("new a");
    // Both were pending in the stopped run: both go up again, though only a holds other bytes.
    expect((await publishAnswers(old, { store, prefix })).uploaded).toBe(2);
    expect((await s3.bytes("revert/a")).toString()).toBe("old a");
  });

  it("refuses a receipt it cannot read, writing nothing: it alone says which objects are velodata's", async () => {
    const prefix = "unread";
    const keyed = answer("/keyed", "answer", "keyed");
    await publishAnswers([answer("/a", "answer", "a"), keyed], { store, prefix });
    for (const [text, why, toDo] of [
      [
        '{"velodataPublish":1,"objects":{"unread/x":{"kind":"bogus"}}}',
        /\(objects\.unread\/x\.kind: /,
        /^delete that object and publish again: /,
      ],
      [
        '{"velodataPublish":2,"objects":{}}',
        /\(it has format 2, another velodata's\)/,
        /^publish with the velodata that wrote it/,
      ],
      ["<html>Welcome</html>", /\(it is not JSON but a page\)/, /^check --endpoint: /],
    ] as const) {
      await store.put("unread/.velodata-publish.json", Buffer.from(text), {
        contentType: "application/json",
        cacheControl: "no-store",
      });
      const before = await s3.keys(prefix);
      // The keyed answer left the release: with the receipt forgotten it would stay up for good.
      const error = await publishAnswers([answer("/a", "answer", "a, new")], {
        store,
        prefix,
      }).catch((cause: unknown) => cause);
      expect(error).toBeInstanceOf(UserError);
      const { message, details } = error as UserError;
      expect(message).toMatch(
        /^the store's receipt unread\/\.velodata-publish\.json \(s3:\/\/velodata at http:\/\/127\.0\.0\.1:\d+\) cannot be read \(/,
      );
      expect(message).toMatch(why);
      expect(message).toMatch(/nothing was uploaded or deleted$/);
      expect(details).toEqual([expect.stringMatching(toDo)]);
      expect(await s3.keys(prefix)).toEqual(before);
      expect((await s3.bytes("unread/.velodata-publish.json")).toString()).toBe(text);
    }
  });

  it("uploads again an object changed behind its back", async () => {
    const prefix = "hand";
    const answers = [answer("/a", "answer", "mine"), answer("/b", "answer", "also mine")];
    await publishAnswers(answers, { store, prefix });
    await store.put("hand/a", Buffer.from("someone else's"), {
      contentType: "text/plain",
      cacheControl: "no-store",
    });
    const stats = await publishAnswers(answers, { store, prefix });
    expect(stats).toMatchObject({ uploaded: 1, unchanged: 1 });
    expect((await s3.bytes("hand/a")).toString()).toBe("mine");
  });
});

describe("publishAnswers, with objects that left the release", () => {
  const LEFT = new Date("2026-01-05T08:00:00.000Z");
  const later = (seconds: number) => new Date(LEFT.getTime() + seconds * 1000);
  const KEEP = 3600;

  /** The receipt's entries under the prefix, as the store holds it. */
  const receiptEntries = async (prefix: string) =>
    JSON.parse((await s3.bytes(`${prefix}/.velodata-publish.json`)).toString()).objects as Record<
      string,
      { removedAt?: string }
    >;

  /** A store whose receipt writes fail after the first `writes`, as a run killed before its last one. */
  function receiptFailingAfter(writes: number, inner: ObjectStore): ObjectStore {
    let count = 0;
    return {
      ...inner,
      async put(key, body, headers) {
        if (key.endsWith(".velodata-publish.json") && ++count > writes)
          throw new Error("the network went away");
        return inner.put(key, body, headers);
      },
    };
  }

  it("keeps one until keepRemoved seconds after it left, recorded in the receipt, then deletes it", async () => {
    const prefix = "grace";
    const first = [answer("/a", "answer", "a"), answer("/b", "answer", "b")];
    await publishAnswers([...first, answer("/l", "list", "a b")], { store, prefix, now: LEFT });
    const next = [first[0] as PublishedAnswer, answer("/l", "list", "a")];
    const left = await publishAnswers(next, { store, prefix, now: LEFT, keepRemoved: KEEP });
    expect(left).toMatchObject({ uploaded: 1, deleted: [], keptForLater: 1 });
    expect((await s3.bytes("grace/b")).toString()).toBe("b");
    expect((await receiptEntries(prefix))["grace/b"]?.removedAt).toBe(LEFT.toISOString());

    // Nothing changed and nothing due: nothing written, and it is kept still.
    const before = s3.events.length;
    const quiet = await publishAnswers(next, { store, prefix, now: later(60), keepRemoved: KEEP });
    expect(quiet).toMatchObject({ uploaded: 0, deleted: [], keptForLater: 1 });
    expect(s3.events.slice(before)).toEqual([]);

    const due = await publishAnswers(next, { store, prefix, now: later(KEEP), keepRemoved: KEEP });
    expect(due).toMatchObject({ uploaded: 0, deleted: ["grace/b"], keptForLater: 0 });
    expect([...(await s3.keys("grace/")).keys()].sort()).toEqual([
      "grace/.velodata-publish.json",
      "grace/a",
      "grace/l",
    ]);
    expect(Object.keys(await receiptEntries(prefix)).sort()).toEqual(["grace/a", "grace/l"]);
  });

  it("records when one left even when nothing else changed, so that its time runs out", async () => {
    const prefix = "alone";
    await publishAnswers([answer("/a", "answer", "a"), answer("/b", "answer", "b")], {
      store,
      prefix,
      now: LEFT,
    });
    const rest = [answer("/a", "answer", "a")];
    // No upload: the receipt is written only to say when b left.
    const left = await publishAnswers(rest, { store, prefix, now: LEFT, keepRemoved: KEEP });
    expect(left).toMatchObject({ uploaded: 0, deleted: [], keptForLater: 1 });
    const due = await publishAnswers(rest, { store, prefix, now: later(KEEP), keepRemoved: KEEP });
    expect(due.deleted).toEqual(["alone/b"]);
  });

  it("a run stopped before its last receipt forgets neither what it keeps nor since when", async () => {
    const prefix = "kept-stop";
    const first = [answer("/a", "answer", "a"), answer("/b", "answer", "b")];
    await publishAnswers([...first, answer("/l", "list", "a b")], { store, prefix, now: LEFT });
    const next = [first[0] as PublishedAnswer, answer("/l", "list", "a")];
    // Its pending receipt goes up, its last one does not.
    await expect(
      publishAnswers(next, {
        store: receiptFailingAfter(1, store),
        prefix,
        now: LEFT,
        keepRemoved: KEEP,
      }),
    ).rejects.toThrow("the network went away");
    expect((await receiptEntries(prefix))["kept-stop/b"]?.removedAt).toBe(LEFT.toISOString());
    // Due from when it left, not from the run that completes the stopped one.
    const due = await publishAnswers(next, { store, prefix, now: later(KEEP), keepRemoved: KEEP });
    expect(due).toMatchObject({ uploaded: 1, resumed: 1, deleted: ["kept-stop/b"] });

    // A run stopped after its deletions: the receipt still names b, and the next run deletes it
    // again, harmlessly, then forgets it.
    await publishAnswers(first, { store, prefix, now: later(KEEP) });
    await expect(
      publishAnswers([answer("/a", "answer", "a")], {
        store: receiptFailingAfter(0, store),
        prefix,
        now: later(KEEP),
      }),
    ).rejects.toThrow("the network went away");
    expect(await s3.keys("kept-stop/b")).toEqual(new Map());
    expect(await receiptEntries(prefix)).toHaveProperty(["kept-stop/b"]);
    const again = await publishAnswers([answer("/a", "answer", "a")], { store, prefix });
    expect(again.deleted).toEqual(["kept-stop/b"]);
    expect(Object.keys(await receiptEntries(prefix))).toEqual(["kept-stop/a"]);
  });

  it("deletes at once what must stop being public, whatever keepRemoved says", async () => {
    const prefix = "at-once";
    const all = [answer("/a", "answer", "a"), answer("/k", "answer", "keyed")];
    await publishAnswers(all, { store, prefix, now: LEFT });
    const stats = await publishAnswers([answer("/a", "answer", "a")], {
      store,
      prefix,
      now: LEFT,
      keepRemoved: KEEP,
      atOnce: (key) => key === "at-once/k",
    });
    expect(stats).toMatchObject({ deleted: ["at-once/k"], keptForLater: 0 });
    expect(await s3.keys("at-once/k")).toEqual(new Map());
  });
});
