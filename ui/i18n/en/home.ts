/** English texts of ui/features/home and ui/features/about, keyed by the zh source string. */
export const home: Record<string, string> = {
}
