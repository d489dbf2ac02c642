/** A JSON object (neither an array nor null): how the converters check what clients and upstreams send. */
export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
