// The one mapping from system conditions to errors a user can act on.
import { describe, expect, it } from "vitest";
import { excerpt, refusedWrite, toUserError, UserError } from "../src/errors.js";

function systemError(code: string, fields: Record<string, unknown>): Error {
  return Object.assign(new Error(`${code}: something`), { code, ...fields });
}

const mapped = (cause: unknown) => {
  const error = toUserError(cause);
  expect(error).toBeInstanceOf(UserError);
  expect((error as UserError).cause).toBe(cause);
  return (error as UserError).message;
};

describe("toUserError", () => {
  it("names the port, the path or the host, and says what to do", () => {
    expect(mapped(systemError("EADDRINUSE", { syscall: "listen", port: 8080 }))).toBe(
      "port 8080 is in use: pass --port or set PORT to a free port",
    );
    expect(mapped(systemError("ENOSPC", { syscall: "write", path: "/srv/out/a.json" }))).toBe(
      "no space left on the device of /srv/out/a.json: free some space and run it again",
    );
    expect(mapped(systemError("EISDIR", { syscall: "open", path: "/srv/keys" }))).toBe(
      "/srv/keys is a folder where a file is expected: give the path of a file",
    );
    expect(mapped(systemError("ENOTDIR", { syscall: "mkdir", path: "/srv/out/x" }))).toContain(
      "/srv/out/x goes through a file where a folder is expected",
    );
    expect(mapped(systemError("EACCES", { syscall: "open", path: "/etc/shadow" }))).toBe(
      "permission denied on /etc/shadow: check its owner and mode",
    );
    expect(mapped(systemError("EACCES", { syscall: "listen", port: 80, address: "0.0.0.0" }))).toBe(
      "0.0.0.0 port 80 needs more privileges: pass --port with a port above 1023",
    );
    expect(mapped(systemError("ENOTFOUND", { syscall: "getaddrinfo", hostname: "nope" }))).toBe(
      "cannot listen on nope: the host name is unknown; pass --host",
    );
    expect(
      mapped(systemError("ENOTEMPTY", { syscall: "rmdir", path: "/srv/.out.velodata/r" })),
    ).toBe(
      "/srv/.out.velodata/r got new files while it was being removed: is another velodata writing this tree (from another container)? run one writer at a time",
    );
  });

  it("maps the runtime's size and depth limits", () => {
    expect(mapped(new RangeError("Invalid string length"))).toContain("split it");
    expect(mapped(new RangeError("Maximum call stack size exceeded"))).toContain(
      "nested too deeply",
    );
  });

  it("leaves real bugs alone", () => {
    const bug = new TypeError("cannot read properties of undefined");
    expect(toUserError(bug)).toBe(bug);
  });
});

describe("refusedWrite", () => {
  it("says a write the file system refused of the place given, not of the file that failed", () => {
    const place = "the keys file /srv/keys.json";
    for (const [code, message] of [
      ["EROFS", `${place} is on a read-only file system: choose another place`],
      ["EACCES", `${place} is not writable by this user: check the owner and mode of its folder`],
      ["EPERM", `${place} is not writable by this user: check the owner and mode of its folder`],
      ["ENOSPC", `no space left on the device of ${place}: free some space and run it again`],
      ["EDQUOT", `disk quota exceeded for ${place}: free some space and run it again`],
    ]) {
      const cause = systemError(code as string, { syscall: "open", path: "/srv/keys.json.lock.1" });
      const error = refusedWrite(cause, place);
      expect(error).toBeInstanceOf(UserError);
      expect((error as UserError).message).toBe(message);
      expect((error as UserError).cause).toBe(cause);
    }
  });

  it("leaves other errors as they are", () => {
    const missing = systemError("ENOENT", { syscall: "open", path: "/srv/x.partial" });
    expect(refusedWrite(missing, "--out /srv")).toBe(missing);
    const bug = new TypeError("x is not a function");
    expect(refusedWrite(bug, "--out /srv")).toBe(bug);
  });
});

describe("excerpt", () => {
  it("keeps short values and cuts long ones, saying how long they were", () => {
    expect(excerpt("dublin")).toBe("dublin");
    expect(excerpt("x".repeat(1000), 10)).toBe("xxxxxxxxxx… (1000 characters)");
  });
});
