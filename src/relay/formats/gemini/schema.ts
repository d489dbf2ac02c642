/**
 * Function parameter schemas. Gemini's `parameters` takes a subset of OpenAPI 3.0 and rejects
 * anything else (`additionalProperties`, `$schema`, `strict`…) with a 400, so OpenAI's JSON Schema is
 * trimmed to that subset; Gemini-format clients may write types in upper case (`OBJECT`), which
 * JSON Schema does not allow.
 */
import { isObject } from '../json'

const GEMINI_SCHEMA_FIELDS = new Set([
	'type', 'format', 'title', 'description', 'nullable', 'enum', 'maxItems', 'minItems', 'properties', 'required',
	'minProperties', 'maxProperties', 'minLength', 'maxLength', 'pattern', 'example', 'anyOf', 'propertyOrdering',
	'default', 'items', 'minimum', 'maximum',
])

export function geminiSchema(schema: unknown): unknown {
	if (Array.isArray(schema)) return schema.map(geminiSchema)
	if (!isObject(schema)) return schema
	const trimmed: Record<string, unknown> = {}
	for (const [field, value] of Object.entries(schema)) {
		if (!GEMINI_SCHEMA_FIELDS.has(field)) continue
		if (field === 'properties' && isObject(value)) {
			trimmed.properties = Object.fromEntries(Object.entries(value).map(([name, property]) => [name, geminiSchema(property)]))
		} else if (field === 'items' || field === 'anyOf') trimmed[field] = geminiSchema(value)
		else if (field === 'type' && Array.isArray(value)) {
			// JSON Schema's ["string", "null"] is OpenAPI's nullable string.
			const types = value.filter((type) => type !== 'null')
			trimmed.type = types[0]
			if (types.length < value.length) trimmed.nullable = true
		} else trimmed[field] = value
	}
	return trimmed
}

/** Keywords holding one schema, a list of schemas, and a map of schemas, walked by jsonSchemaFromGemini. */
const ONE_SCHEMA = new Set(['items', 'additionalProperties', 'not', 'contains'])
const SCHEMA_LIST = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems'])
const SCHEMA_MAP = new Set(['properties', '$defs', 'definitions', 'patternProperties'])

/**
 * A Gemini-format schema (OpenAPI's `responseSchema`, or a `responseJsonSchema` written with Gemini's
 * upper-case types, as Gemini CLI writes it) as JSON Schema for any other upstream: types in lower
 * case, OpenAPI's `nullable: true` as a `null` type, nested schemas alike, the rest as it is.
 */
export function jsonSchemaFromGemini(schema: unknown): unknown {
	if (Array.isArray(schema)) return schema.map(jsonSchemaFromGemini)
	if (!isObject(schema)) return schema
	const result: Record<string, unknown> = {}
	for (const [field, value] of Object.entries(schema)) {
		if (field === 'type' && typeof value === 'string') result.type = value.toLowerCase()
		else if (field === 'type' && Array.isArray(value)) result.type = value.map((type) => (typeof type === 'string' ? type.toLowerCase() : type))
		else if (field === 'nullable') continue
		else if (ONE_SCHEMA.has(field) && isObject(value)) result[field] = jsonSchemaFromGemini(value)
		else if ((SCHEMA_LIST.has(field) || field === 'items') && Array.isArray(value)) result[field] = value.map(jsonSchemaFromGemini)
		else if (SCHEMA_MAP.has(field) && isObject(value)) result[field] = Object.fromEntries(Object.entries(value).map(([name, property]) => [name, jsonSchemaFromGemini(property)]))
		else result[field] = value
	}
	if (schema.nullable === true && typeof result.type === 'string') result.type = [result.type, 'null']
	return result
}
