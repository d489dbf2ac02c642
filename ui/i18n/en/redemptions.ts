/** English texts of ui/features/redemptions, keyed by the zh source string. */
export const redemptions: Record<string, string> = {
}
