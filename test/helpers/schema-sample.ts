/**
 * A value that fits a JSON schema, for fake upstreams that answer structured output as a model
 * constrained to the schema would: every property present, the first enum value or `const`, one
 * item per list, the first choice of `anyOf`/`oneOf`, local `$ref`s followed. Reads JSON Schema
 * and Gemini's OpenAPI form (upper-case types) alike. Strings are `sample` unless the schema says
 * otherwise; numbers are 1.
 */
type Schema = Record<string, any>

const MAX_DEPTH = 16

export function sampleOf(schema: unknown, root: unknown = schema, depth = 0): unknown {
	if (depth > MAX_DEPTH || typeof schema !== 'object' || schema === null) return null
	const node = schema as Schema
	if (typeof node.$ref === 'string') return sampleOf(resolve(root as Schema, node.$ref), root, depth + 1)
	if ('const' in node) return node.const
	if (Array.isArray(node.enum) && node.enum.length > 0) return node.enum[0]
	for (const choice of ['anyOf', 'oneOf', 'allOf']) {
		if (Array.isArray(node[choice]) && node[choice].length > 0) {
			const first = node[choice].find((option: Schema) => String(option?.type ?? '').toLowerCase() !== 'null') ?? node[choice][0]
			return sampleOf(first, root, depth + 1)
		}
	}
	const types = Array.isArray(node.type) ? node.type : [node.type]
	const type = String(types.find((candidate: unknown) => String(candidate).toLowerCase() !== 'null') ?? (node.properties ? 'object' : 'string')).toLowerCase()
	switch (type) {
		case 'object': {
			const properties: Schema = typeof node.properties === 'object' && node.properties !== null ? node.properties : {}
			return Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, sampleOf(property, root, depth + 1)]))
		}
		case 'array': return node.items ? [sampleOf(node.items, root, depth + 1)] : []
		case 'integer': case 'number': return 1
		case 'boolean': return true
		case 'null': return null
		default: return node.format === 'date' ? '2026-01-01' : node.format === 'date-time' ? '2026-01-01T00:00:00Z' : 'sample'
	}
}

function resolve(root: Schema, reference: string): unknown {
	if (!reference.startsWith('#/')) return undefined
	let node: any = root
	for (const part of reference.slice(2).split('/')) node = node?.[part.replaceAll('~1', '/').replaceAll('~0', '~')]
	return node
}
