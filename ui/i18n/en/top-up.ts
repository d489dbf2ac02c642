/** English texts of ui/features/top-up, keyed by the zh source string. */
export const topUp: Record<string, string> = {
}
