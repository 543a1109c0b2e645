// A refresh's changed lists and feeds (a cron refresh's, or a server's after its swap) compressed
// in the thread pool as soon as each is added: a contract's list is compressed once, as pieces
// that both its own variants and those of the list of all stations (its contracts' lists joined)
// are assembled from. Where contracts are small, their lists are compressed whole, and small
// bodies may be compressed elsewhere (see ChangedVariantsOptions).

import { withFields } from "../../with-fields.js";
import {
  compressBody,
  contractListPieces,
  type Levels,
  type ListPieces,
  levelsFor,
  listVariants,
  SMALL_BODY,
  worthCompressing,
} from "../compress.js";
import type { ListLayout } from "../list-layout.js";
import type { ReleaseFile, Variants } from "../release.js";
import type { ListKind } from "./splice-stations.js";

// As compressRelease: the pool has 4 threads; more in flight only holds more joined bodies.
const IN_FLIGHT = 4;

/**
 * Below this size of a contract's list on average, its list of all stations is compressed whole
 * rather than joined of its contracts' pieces. A piece costs ~0.25 ms of CPU more than the list's
 * variants compressed whole in this thread (two streams, five round trips to the thread pool); the
 * list of all compressed again costs ~4.4 µs a KB of it (gzip and brotli at level 1): pieces pay
 * from ~57 KB a contract (measured on 100,000 stations in 2,000 and in 50 contracts).
 */
export const PIECES_PAY_FROM = 64 << 10;

/** Whether contracts' lists averaging `listBytes / contracts` bytes pay being made into pieces. */
export const piecesPay = (listBytes: number, contracts: number): boolean =>
  contracts > 0 && listBytes / contracts >= PIECES_PAY_FROM;

export interface ChangedVariantsOptions {
  /**
   * Contracts' lists compressed as pieces, the lists of all stations joined of them (by default);
   * false: compressed whole as any other file, and the lists of all too (see piecesPay).
   */
  pieces?: boolean;
  /**
   * What compresses the bodies of up to SMALL_BODY bytes not made into pieces, as compressBody
   * would (SmallBodies' worker); by default the thread pool, as the others.
   */
  small?: (body: readonly Uint8Array[], levels: Levels) => Promise<Variants>;
}

/** A contract's list's items compressed as the pieces its variants are made of. */
type ContractPieces = Promise<ListPieces>;

export class ChangedVariants {
  readonly #piecesWanted: boolean;
  readonly #small: ChangedVariantsOptions["small"];
  #queue: (() => Promise<unknown>)[] = [];
  #running = 0;
  /** A contract's list: its items (between its brackets) compressed as pieces. */
  #pieces = new Map<string, ContractPieces>();
  /** Any other file, both variants; equal bytes once (GBFS serves each v2 feed at two paths). */
  #whole = new Map<string, Promise<Variants>>();
  #files = new Map<string, [ReleaseFile, ListKind]>();

  constructor(options: ChangedVariantsOptions = {}) {
    this.#piecesWanted = options.pieces ?? true;
    this.#small = options.small;
  }

  /**
   * Starts compressing a list or feed of the refresh (those not worth it are left as they are, but
   * a contract's list made into pieces, which a list of all may be joined of).
   */
  add(path: string, file: ReleaseFile, kind: ListKind): void {
    const worth = worthCompressing(file);
    const pieces = kind === "contract" && this.#piecesWanted;
    if (!worth && !pieces) return;
    if (worth) this.#files.set(path, [file, kind]);
    const levels = levelsFor(file, "refresh");
    if (pieces) {
      this.#pieces.set(
        path,
        this.#later(() => contractListPieces(file.body, levels)),
      );
    } else if (kind !== "all") {
      const key = `${file.etag} ${levels.gzip} ${levels.brotli}`;
      if (!this.#whole.has(key))
        this.#whole.set(
          key,
          this.#small && file.size <= SMALL_BODY
            ? this.#small(file.body, levels)
            : this.#later(() => compressBody(file.body, levels)),
        );
    }
  }

  /**
   * A contract's list this refresh did not change, made into pieces only (never given variants of
   * its own): a list of all stations is joined of pieces only when every contract's are there, and
   * is otherwise compressed whole again, ~4.4 µs a KB of it: at 100,000 stations, one contract of
   * 50 whose stations all kept their state made the cron refresh wait 0.40-0.48 s for the
   * variants against 0.08-0.20 s.
   */
  addPieces(path: string, file: ReleaseFile): void {
    if (!this.#piecesWanted || this.#pieces.has(path)) return;
    const levels = levelsFor(file, "refresh");
    this.#pieces.set(
      path,
      this.#later(() => contractListPieces(file.body, levels)),
    );
  }

  /**
   * Every file added, with its variants, once all are made. A list of all stations gets its
   * variants from its contracts' pieces when `lists` says how it is made of them and each was
   * added as pieces; else it is compressed whole, from now.
   */
  async finish(lists: readonly ListLayout[] = []): Promise<[string, ReleaseFile][]> {
    const made: Promise<[string, ReleaseFile]>[] = [];
    const layoutOf = new Map(lists.map((layout) => [layout.all, layout]));
    for (const [path, [file, kind]] of this.#files) {
      const levels = levelsFor(file, "refresh");
      const withVariants = async (variants: Variants): Promise<[string, ReleaseFile]> => [
        path,
        withFields(file, { variants }),
      ];
      const own = this.#pieces.get(path);
      if (own) {
        made.push(own.then((contract) => withVariants(listVariants([contract], file.size))));
      } else if (kind === "all") {
        const layout = layoutOf.get(path);
        const pieces = layout?.contracts.map((contract) => this.#pieces.get(contract));
        made.push(
          (pieces?.every((piece) => piece !== undefined) && pieces.length > 0
            ? Promise.all(pieces as ContractPieces[]).then((parts) =>
                listVariants(parts, file.size),
              )
            : this.#later(() => compressBody(file.body, levels))
          ).then(withVariants),
        );
      } else {
        const key = `${file.etag} ${levels.gzip} ${levels.brotli}`;
        made.push((this.#whole.get(key) as Promise<Variants>).then(withVariants));
      }
    }
    return Promise.all(made);
  }

  /** `job` once fewer than IN_FLIGHT are running, in the order asked. */
  #later<T>(job: () => Promise<T>): Promise<T> {
    const done = new Promise<T>((resolve, reject) => {
      this.#queue.push(() => job().then(resolve, reject));
      this.#next();
    });
    done.catch(() => {}); // handled where finish awaits it
    return done;
  }

  #next(): void {
    while (this.#running < IN_FLIGHT && this.#queue.length > 0) {
      const job = this.#queue.shift() as () => Promise<unknown>;
      this.#running++;
      job().finally(() => {
        this.#running--;
        this.#next();
      });
    }
  }
}
