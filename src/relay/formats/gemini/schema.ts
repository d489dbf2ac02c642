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

/** A Gemini-format schema as JSON Schema: types in lower case, the rest as it is. */
export function jsonSchemaFromGemini(schema: unknown): unknown {
	if (Array.isArray(schema)) return schema.map(jsonSchemaFromGemini)
	if (!isObject(schema)) return schema
	return Object.fromEntries(Object.entries(schema).map(([field, value]) => {
		if (field === 'type' && typeof value === 'string') return [field, value.toLowerCase()]
		if (field === 'properties' && isObject(value)) return [field, Object.fromEntries(Object.entries(value).map(([name, property]) => [name, jsonSchemaFromGemini(property)]))]
		if (field === 'items' || field === 'anyOf') return [field, jsonSchemaFromGemini(value)]
		return [field, value]
	}))
}
