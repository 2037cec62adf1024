// The order a bulk write inserts rows in. A B-tree insert first walks to the leaf its key belongs on; rows in
// random key order touch a different leaf each time, and once the index outgrows the CPU caches (and then
// the page cache) every insert waits on memory. Grouping rows by their key's leading column (language, site)
// keeps consecutive inserts in one region of the index. A full sort would order them better but costs more
// in JavaScript than it saves in SQLite (measured: issue #8, bench/notes-bulk.md).

/** The rows grouped by `key`, groups in key order, rows in their original order within a group. */
export function inGroups<T>(rows: readonly T[], key: (row: T) => string): T[] {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    const group = groups.get(k);
    if (group) group.push(row);
    else groups.set(k, [row]);
  }
  return [...groups.keys()].sort().flatMap((k) => groups.get(k)!);
}
