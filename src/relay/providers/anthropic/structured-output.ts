/**
 * OpenAI's `response_format` for a Claude upstream. Claude 4.5 and later models constrain their
 * answer to a JSON schema natively (`output_config.format: {type: 'json_schema', schema}`), with a
 * narrower JSON Schema than OpenAI's: every object closed (`additionalProperties: false`), no numeric,
 * length or count bounds. Older models, and `json_object` (which names no schema), get the tool
 * fallback: one tool whose input is the answer, which the model is made to call, and whose input
 * comes back to the client as the answer's text (answer.ts, stream.ts) with the finish reason `stop`.
 *
 * Both sides decide from the same request body (with the upstream model name in it), so the answer
 * converters turn back exactly the tool the request added, never a client's own tool.
 */
import { isObject } from '../../formats/json'
import { claudeVersionOf, isAtLeast } from './model-version'

type Json = Record<string, unknown>

/** The fallback tool's name, unless a client tool has it (then a numbered variant). */
const FALLBACK_TOOL = 'json_output'
const FALLBACK_DESCRIPTION = 'Give your answer by calling this tool: its input is the answer, a JSON value matching the schema.'
/** A schema whose root is not an object travels as this property of an object (a tool's input is an object). */
const WRAPPED_PROPERTY = 'value'

/** Bounds Claude's structured outputs refuse (it checks the shape, not the sizes). */
const UNSUPPORTED_KEYWORDS = new Set([
	'$schema', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength',
	'maxItems', 'uniqueItems', 'minProperties', 'maxProperties', 'strict',
])
/** Keywords holding one schema, and keywords holding a list or a map of schemas. */
const SCHEMA_KEYWORDS = new Set(['items', 'additionalItems', 'not', 'contains'])
const SCHEMA_LIST_KEYWORDS = new Set(['anyOf', 'allOf', 'oneOf', 'prefixItems'])
const SCHEMA_MAP_KEYWORDS = new Set(['properties', '$defs', 'definitions', 'patternProperties'])

/** Whether the model takes `output_config.format`: Claude 4.5 and later. */
export function supportsNativeStructuredOutput(model: string): boolean {
	const version = claudeVersionOf(model)
	return version !== undefined && isAtLeast(version, 4, 5)
}

/** A JSON schema in the subset Claude's structured outputs take: objects closed, bounds left out. */
export function claudeSchema(schema: unknown): unknown {
	if (Array.isArray(schema)) return schema.map(claudeSchema)
	if (!isObject(schema)) return schema
	const result: Json = {}
	for (const [keyword, value] of Object.entries(schema)) {
		if (UNSUPPORTED_KEYWORDS.has(keyword)) continue
		// Only 0 and 1 are allowed as a list's least length.
		if (keyword === 'minItems') {
			if (value === 0 || value === 1) result.minItems = value
			continue
		}
		if (SCHEMA_KEYWORDS.has(keyword)) result[keyword] = claudeSchema(value)
		else if (SCHEMA_LIST_KEYWORDS.has(keyword) && Array.isArray(value)) result[keyword === 'oneOf' ? 'anyOf' : keyword] = value.map(claudeSchema)
		else if (SCHEMA_MAP_KEYWORDS.has(keyword) && isObject(value)) result[keyword] = Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, claudeSchema(inner)]))
		else result[keyword] = value
	}
	const isObjectType = result.type === 'object' || (Array.isArray(result.type) && result.type.includes('object')) || isObject(result.properties)
	if (isObjectType) result.additionalProperties = false
	return result
}

/** The request's JSON schema (`json_schema`), `undefined` for `json_object`, or no format at all. */
function requestedFormat(body: Json): { schema: Json | undefined } | undefined {
	const format = body.response_format
	if (!isObject(format)) return undefined
	if (format.type === 'json_object') return { schema: undefined }
	if (format.type !== 'json_schema') return undefined
	const definition = isObject(format.json_schema) ? format.json_schema : {}
	return { schema: isObject(definition.schema) ? definition.schema : { type: 'object' } }
}

const isObjectRoot = (schema: Json) => schema.type === 'object' || (schema.type === undefined && isObject(schema.properties))

/** The fallback tool the request uses, when it uses one: its name and whether the schema's root is wrapped. */
export interface FallbackTool {
	name: string
	wrapped: boolean
}

/** The tool fallback of a request (body with the upstream model name), or undefined when it needs none. */
export function fallbackToolOf(body: Json | undefined): FallbackTool | undefined {
	if (!body) return undefined
	const format = requestedFormat(body)
	if (!format) return undefined
	if (format.schema && supportsNativeStructuredOutput(String(body.model ?? ''))) return undefined
	const taken = new Set((Array.isArray(body.tools) ? body.tools : []).map((tool) => (isObject(tool) && isObject(tool.function) ? tool.function.name : undefined)))
	let name = FALLBACK_TOOL
	for (let suffix = 2; taken.has(name); suffix++) name = `${FALLBACK_TOOL}_${suffix}`
	return { name, wrapped: format.schema !== undefined && !isObjectRoot(format.schema) }
}

/**
 * What a Claude request gets for the body's `response_format`: `output_config` on a model that takes
 * it; otherwise the fallback tool added to `tools` and chosen (`any` when the client has tools of its
 * own, none forced while thinking, which refuses a forced tool). Empty when the body asks for no format.
 */
export function claudeStructuredOutput(body: Json, claudeTools: Json[] | undefined, thinking: boolean): Json {
	const format = requestedFormat(body)
	if (!format) return {}
	const fallback = fallbackToolOf(body)
	if (!fallback) return { output_config: { format: { type: 'json_schema', schema: claudeSchema(format.schema) } } }
	const schema = format.schema ?? { type: 'object' }
	const inputSchema = fallback.wrapped ? { type: 'object', properties: { [WRAPPED_PROPERTY]: schema }, required: [WRAPPED_PROPERTY] } : schema
	const tool = { name: fallback.name, description: FALLBACK_DESCRIPTION, input_schema: inputSchema }
	const ownTools = claudeTools ?? []
	const choice = thinking ? { type: 'auto' } : ownTools.length > 0 ? { type: 'any' } : { type: 'tool', name: fallback.name }
	return { tools: [...ownTools, tool], tool_choice: choice }
}

/** The fallback tool's input as the answer's text: the JSON the client asked for. */
export function fallbackAnswerText(input: unknown, fallback: FallbackTool): string {
	const value = fallback.wrapped && isObject(input) ? input[WRAPPED_PROPERTY] : input
	return JSON.stringify(value ?? {})
}
