// A refresh's changed lists and feeds (a cron refresh's, or a server's after its swap) compressed
// in the thread pool as soon as each is added: a contract's list is compressed once, as pieces
// that both its own variants and those of the list of all stations (its contracts' lists joined)
// are assembled from.

import { withFields } from "../../with-fields.js";
import {
  compressBody,
  contractListPieces,
  type ListPieces,
  levelsFor,
  listVariants,
  worthCompressing,
} from "../compress.js";
import type { ListLayout } from "../list-layout.js";
import type { ReleaseFile, Variants } from "../release.js";
import type { ListKind } from "./splice-stations.js";

// As compressRelease: the pool has 4 threads; more in flight only holds more joined bodies.
const IN_FLIGHT = 4;

/** A contract's list's items compressed as the pieces its variants are made of. */
type ContractPieces = Promise<ListPieces>;

export class ChangedVariants {
  #queue: (() => Promise<unknown>)[] = [];
  #running = 0;
  /** A contract's list: its items (between its brackets) compressed as pieces. */
  #pieces = new Map<string, ContractPieces>();
  /** Any other file, both variants; equal bytes once (GBFS serves each v2 feed at two paths). */
  #whole = new Map<string, Promise<Variants>>();
  #files = new Map<string, [ReleaseFile, ListKind]>();

  /**
   * Starts compressing a list or feed of the refresh (those not worth it are left as they are, but
   * a contract's list, whose pieces a list of all may be joined of).
   */
  add(path: string, file: ReleaseFile, kind: ListKind): void {
    const worth = worthCompressing(file);
    if (!worth && kind !== "contract") return;
    if (worth) this.#files.set(path, [file, kind]);
    const levels = levelsFor(file, "refresh");
    if (kind === "contract") {
      this.#pieces.set(
        path,
        this.#later(() => contractListPieces(file.body, levels)),
      );
    } else if (kind !== "all") {
      const key = `${file.etag} ${levels.gzip} ${levels.brotli}`;
      if (!this.#whole.has(key))
        this.#whole.set(
          key,
          this.#later(() => compressBody(file.body, levels)),
        );
    }
  }

  /**
   * Every file added, with its variants, once all are made. A list of all stations gets its
   * variants from its contracts' pieces when `lists` says how it is made of them and each was
   * added; else it is compressed whole, from now.
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
      if (kind === "contract") {
        const pieces = this.#pieces.get(path) as ContractPieces;
        made.push(pieces.then((contract) => withVariants(listVariants([contract], file.size))));
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
