// A read-only map whose versions share one index of their keys: a new version with some values
// replaced copies an array of values, not a whole Map (the server's refresh, every minute).

export class IndexedMap<K, V> implements ReadonlyMap<K, V> {
  private constructor(
    /** Each key's position in `keys` and `values`; shared by every version. */
    private readonly positions: ReadonlyMap<K, number>,
    /** In insertion order, as a Map iterates; shared by every version. */
    readonly keyList: readonly K[],
    private readonly valueList: readonly V[],
  ) {}

  /** The same entries, in the same order; `map` itself when it is one already. */
  static of<K, V>(map: ReadonlyMap<K, V>): IndexedMap<K, V> {
    if (map instanceof IndexedMap) return map as IndexedMap<K, V>;
    const positions = new Map<K, number>();
    const keys: K[] = [];
    const values: V[] = [];
    for (const [key, value] of map) {
      positions.set(key, keys.length);
      keys.push(key);
      values.push(value);
    }
    return new IndexedMap(positions, keys, values);
  }

  /** Keys and values aligned; undefined when a key comes twice. */
  static fromLists<K, V>(keys: readonly K[], values: readonly V[]): IndexedMap<K, V> | undefined {
    const positions = new Map<K, number>();
    for (let at = 0; at < keys.length; at++) positions.set(keys[at] as K, at);
    if (positions.size !== keys.length) return undefined;
    return new IndexedMap(positions, keys, values);
  }

  /** The same keys with other values, aligned with `keyList`. */
  withValues(values: readonly V[]): IndexedMap<K, V> {
    if (values.length !== this.keyList.length) throw new Error("bug: one value per key");
    return new IndexedMap(this.positions, this.keyList, values);
  }

  /** The same keys and values, but `values[i]` at position `positions[i]`. */
  withValuesAt(positions: readonly number[], values: readonly V[]): IndexedMap<K, V> {
    const next = this.valueList.slice();
    for (let at = 0; at < positions.length; at++) {
      const position = positions[at] as number;
      if (!(position >= 0 && position < next.length)) throw new Error("bug: no such position");
      next[position] = values[at] as V;
    }
    return new IndexedMap(this.positions, this.keyList, next);
  }

  /** The same keys, those of `changed` with its values; undefined when `changed` has a key this has not. */
  with(changed: ReadonlyMap<K, V>): IndexedMap<K, V> | undefined {
    const values = this.valueList.slice();
    for (const [key, value] of changed) {
      const at = this.positions.get(key);
      if (at === undefined) return undefined;
      values[at] = value;
    }
    return new IndexedMap(this.positions, this.keyList, values);
  }

  /** True when both hold the same keys by construction (one is a version of the other). */
  sameKeys(other: ReadonlyMap<K, unknown>): boolean {
    return other instanceof IndexedMap && other.positions === this.positions;
  }

  positionOf(key: K): number | undefined {
    return this.positions.get(key);
  }

  valueAt(position: number): V {
    return this.valueList[position] as V;
  }

  get(key: K): V | undefined {
    const at = this.positions.get(key);
    return at === undefined ? undefined : this.valueList[at];
  }

  has(key: K): boolean {
    return this.positions.has(key);
  }

  get size(): number {
    return this.keyList.length;
  }

  forEach(callback: (value: V, key: K, map: ReadonlyMap<K, V>) => void, thisArg?: unknown): void {
    for (let at = 0; at < this.keyList.length; at++)
      callback.call(thisArg, this.valueList[at] as V, this.keyList[at] as K, this);
  }

  *entries(): MapIterator<[K, V]> {
    for (let at = 0; at < this.keyList.length; at++)
      yield [this.keyList[at] as K, this.valueList[at] as V];
  }

  keys(): MapIterator<K> {
    return this.keyList.values();
  }

  values(): MapIterator<V> {
    return this.valueList.values();
  }

  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }
}
