/** "Did you mean" for tool names: the closest names by edit distance. */

/** Up to `max` candidates within a distance of a third of the name's length (at least 2). */
export function nearestNames(name: string, candidates: readonly string[], max = 3): string[] {
  const limit = Math.max(2, Math.floor(name.length / 3));
  return candidates
    .map((candidate) => ({ candidate, distance: editDistance(name.toLowerCase(), candidate.toLowerCase()) }))
    .filter(({ candidate, distance }) => distance <= limit || candidate.includes(name) || name.includes(candidate))
    .sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate))
    .slice(0, max)
    .map(({ candidate }) => candidate);
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
