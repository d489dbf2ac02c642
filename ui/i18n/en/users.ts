/** English texts of ui/features/users, keyed by the zh source string. */
export const users: Record<string, string> = {
}
