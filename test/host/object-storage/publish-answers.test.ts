import { type AddressInfo, createServer } from "node:net";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UserError } from "../../../src/errors.js";
import type { ObjectStore } from "../../../src/host/object-storage/object-store.js";
import { publishAnswers } from "../../../src/host/object-storage/publish-answers.js";
import type {
  AnswerKind,
  PublishedAnswer,
} from "../../../src/host/object-storage/published-answer.js";
import { s3Store } from "../../../src/host/object-storage/s3-store.js";
import { BUCKET, CREDENTIALS, startS3, type TestS3 } from "./s3-server.js";

let s3: TestS3;
let store: ObjectStore;
beforeAll(async () => {
  s3 = await startS3();
  process.env.AWS_ACCESS_KEY_ID = CREDENTIALS.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = CREDENTIALS.secretAccessKey;
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
