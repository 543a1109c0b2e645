// Bounded memories kept in a Map, whose order is that of insertion: the first entries are the oldest.

/** Forgets `map`'s oldest entry once it holds more than `most`. */
export function forgetOldest<K, V>(map: Map<K, V>, most: number): void {
  if (map.size <= most) return;
  const oldest = map.keys().next();
  if (!oldest.done) map.delete(oldest.value);
}
