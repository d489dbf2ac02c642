/** English texts of ui/features/chat, keyed by the zh source string. */
export const chat: Record<string, string> = {
}
