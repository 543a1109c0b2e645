// The nginx deployment's ids of the requests its key check counted (`$request_id`, sent as
// CHECK_TICKET_HEADER with the check and with the request handed on after it), each with what the
// check counted: the hand-over asking the same is answered as the check found it, not counted again.
import type { IncomingMessage } from "node:http";
import { CHECK_TICKET_HEADER } from "../routes/key-check.js";
import { forgetOldest } from "./forget-oldest.js";

// Node's header names are lower case.
const CHECK_TICKET = CHECK_TICKET_HEADER.toLowerCase();
// Checked requests remembered at most: a hand-over follows its check within milliseconds.
const KEPT = 10_000;

export interface CheckTickets<Counted> {
  /** Remembers that the key check `request` counted `counted`, if the front named the request. */
  keep(request: IncomingMessage, counted: Counted): void;
  /**
   * What the check of the request handed on counted, when `same` finds it asks the same (a client
   * makes up ids as it likes): then forgotten, so that an id spares one count only.
   */
  take(request: IncomingMessage, same: (counted: Counted) => boolean): Counted | undefined;
}

export function checkTickets<Counted>(): CheckTickets<Counted> {
  const kept = new Map<string, Counted>();
  return {
    keep(request, counted) {
      const ticket = request.headers[CHECK_TICKET];
      if (typeof ticket !== "string") return;
      kept.set(ticket, counted);
      forgetOldest(kept, KEPT);
    },
    take(request, same) {
      const ticket = request.headers[CHECK_TICKET];
      const counted = typeof ticket === "string" ? kept.get(ticket) : undefined;
      if (counted === undefined || !same(counted)) return undefined;
      kept.delete(ticket as string); // once
      return counted;
    },
  };
}
