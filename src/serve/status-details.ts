// Who sees the whole of /status. Its paths (--source, --out, the front's tree), the errors that
// name files, the memory and the keys are for the server's operators; any other client, however
// far, gets the health a monitoring check needs (ok, the release, its age, the refreshes, the
// feed), so that a public /status says nothing of the machine behind it.
import type { IncomingMessage } from "node:http";
import { BlockList, isIP } from "node:net";
import { clientAddress, fromThisMachine } from "./client-address.js";

/** Every client sees the whole document (as before the option existed). */
export const ANY_CLIENT = "any";

/** By default the operators are on the server's own machine (or its nginx hands them on). */
export const DEFAULT_DETAILS_FROM: readonly string[] = ["127.0.0.0/8", "::1"];

/** What the option takes, said by its error. */
export const DETAILS_FROM_EXPECTED =
  "addresses and networks, comma-separated (e.g. 10.0.0.0/8,::1), or any";

/**
 * The entries of one `--status-details-from` value, added to those given before (the option may
 * be repeated); throws naming the entry that is no address, network or `any`.
 */
export function detailsFromEntries(value: string, previous: readonly string[] = []): string[] {
  const entries = value
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  if (entries.length === 0)
    throw new Error(`names no address or network: give ${DETAILS_FROM_EXPECTED}`);
  for (const entry of entries)
    if (entry.toLowerCase() !== ANY_CLIENT && networkOf(entry) === null)
      throw new Error(`"${entry}" is no address or network: give ${DETAILS_FROM_EXPECTED}`);
  return [...previous, ...entries];
}

/** Whether a client at this address (as clientAddress names it) sees the whole document. */
export function detailsShownTo(entries: readonly string[]): (address: string) => boolean {
  if (entries.some((entry) => entry.toLowerCase() === ANY_CLIENT)) return () => true;
  const allowed = new BlockList();
  for (const entry of entries) {
    const network = networkOf(entry);
    if (network === null) throw new Error(`bug: unchecked --status-details-from entry ${entry}`);
    const { address, prefix, family } = network;
    if (prefix === undefined) allowed.addAddress(address, family);
    else allowed.addSubnet(address, prefix, family);
  }
  return (address) => {
    const version = isIP(address);
    // IPv4 networks match IPv4-mapped IPv6 addresses (::ffff:127.0.0.1) too.
    return version !== 0 && allowed.check(address, version === 6 ? "ipv6" : "ipv4");
  };
}

/**
 * Whether a request's client sees the whole document: its address as the wrong-key brake takes it
 * (nginx on this machine names the client it hands on). A peer elsewhere that names another client
 * is a proxy handing requests on, a load balancer in a network given here, say: every address it
 * names must be shown too, else anyone on the internet would see what its network does.
 */
export function statusDetailsOf(entries: readonly string[]): (request: IncomingMessage) => boolean {
  if (entries.some((entry) => entry.toLowerCase() === ANY_CLIENT)) return () => true;
  const shown = detailsShownTo(entries);
  return (request) => {
    if (!shown(clientAddress(request))) return false;
    if (fromThisMachine(request)) return true;
    const { forwarded, "x-forwarded-for": forwardedFor, "x-real-ip": realIp } = request.headers;
    // RFC 7239's form (for=…;proto=…) names its clients in a syntax not read here: unknown ones.
    if (forwarded !== undefined) return false;
    return [forwardedFor ?? [], realIp ?? []]
      .flat()
      .flatMap((named) => named.split(","))
      .every((address) => shown(address.trim()));
  };
}

interface Network {
  address: string;
  prefix: number | undefined;
  family: "ipv4" | "ipv6";
}

/** `10.0.0.0/8`, `::1`, `fd00::/8`… as BlockList takes them; null when it is none. */
function networkOf(entry: string): Network | null {
  const slash = entry.indexOf("/");
  const address = slash < 0 ? entry : entry.slice(0, slash);
  const version = isIP(address);
  if (version === 0) return null;
  const family = version === 6 ? "ipv6" : "ipv4";
  if (slash < 0) return { address, prefix: undefined, family };
  const bits = entry.slice(slash + 1);
  const prefix = Number(bits);
  const most = version === 6 ? 128 : 32;
  if (!/^\d{1,3}$/.test(bits) || prefix > most) return null;
  return { address, prefix, family };
}
