/** English texts of ui/features/channels/editor, keyed by the zh source string. */
export const channelEditor: Record<string, string> = {
}
