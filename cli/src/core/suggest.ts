function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0] ?? 0;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const temp = row[j] ?? 0;
      row[j] = Math.min((row[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = temp;
    }
  }
  return row[b.length] ?? 0;
}

/** "Did you mean …": commands sharing the prefix, or within edit distance < 2. */
export function suggest(name: string, candidates: readonly string[]): string[] {
  return candidates.filter((c) => c.startsWith(name) || distance(name, c) < 2).sort();
}
