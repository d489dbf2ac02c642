/** English texts of ui/features/tokens, keyed by the zh source string. */
export const tokens: Record<string, string> = {
}
