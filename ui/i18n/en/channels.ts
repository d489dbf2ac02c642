/** English texts of ui/features/channels, keyed by the zh source string. */
export const channels: Record<string, string> = {
}
