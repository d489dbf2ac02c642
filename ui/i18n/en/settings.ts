/** English texts of ui/features/settings, keyed by the zh source string. */
export const settings: Record<string, string> = {
}
