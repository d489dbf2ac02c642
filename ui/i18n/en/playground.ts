/** English texts of ui/features/playground, keyed by the zh source string. */
export const playground: Record<string, string> = {
}
