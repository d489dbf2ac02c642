/** English texts of ui/features/pricing, keyed by the zh source string. */
export const pricing: Record<string, string> = {
}
