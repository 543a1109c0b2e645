// Values derived from an object once and kept as long as it lives: a server checks and renders
// every minute's states against the same static data, whose indexes need not be made again.

/** `derive`, remembered per argument (by identity, in a WeakMap: nothing is kept alive by it). */
export function oncePerObject<K extends object, V>(derive: (key: K) => V): (key: K) => V {
  const known = new WeakMap<K, V>();
  return (key) => {
    if (known.has(key)) return known.get(key) as V;
    const value = derive(key);
    known.set(key, value);
    return value;
  };
}
