/** English texts of ui/features/auth, keyed by the zh source string. */
export const auth: Record<string, string> = {
}
