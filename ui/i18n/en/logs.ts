/** English texts of ui/features/logs, keyed by the zh source string. */
export const logs: Record<string, string> = {
}
