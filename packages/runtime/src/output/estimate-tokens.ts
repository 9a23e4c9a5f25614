/** Token estimate shared by every tool: UTF-8 bytes / 4, rounded down (spec §8.2). */
export function estimateTokens(text: string): number {
  return Math.floor(Buffer.byteLength(text, "utf8") / 4);
}
