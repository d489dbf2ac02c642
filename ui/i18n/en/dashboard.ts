/** English texts of ui/features/dashboard, keyed by the zh source string. */
export const dashboard: Record<string, string> = {
}
