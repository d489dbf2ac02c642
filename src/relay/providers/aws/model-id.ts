/**
 * Anthropic's model names → Bedrock model ids. A name already in Bedrock's form (a provider prefix
 * with a dot, `us.`/`eu.`/`global.` inference profiles, or an ARN) is sent as it is; so is a name
 * not in the table, and Bedrock's 400 then says which id it does not know.
 */
const BEDROCK_MODEL_IDS: Record<string, string> = {
	'claude-instant-1.2': 'anthropic.claude-instant-v1',
	'claude-2.0': 'anthropic.claude-v2',
	'claude-2.1': 'anthropic.claude-v2:1',
	'claude-3-haiku-20240307': 'anthropic.claude-3-haiku-20240307-v1:0',
	'claude-3-sonnet-20240229': 'anthropic.claude-3-sonnet-20240229-v1:0',
	'claude-3-opus-20240229': 'anthropic.claude-3-opus-20240229-v1:0',
	'claude-3-5-sonnet-20240620': 'anthropic.claude-3-5-sonnet-20240620-v1:0',
	'claude-3-5-sonnet-20241022': 'anthropic.claude-3-5-sonnet-20241022-v2:0',
	'claude-3-5-haiku-20241022': 'anthropic.claude-3-5-haiku-20241022-v1:0',
	'claude-3-7-sonnet-20250219': 'anthropic.claude-3-7-sonnet-20250219-v1:0',
	'claude-sonnet-4-20250514': 'anthropic.claude-sonnet-4-20250514-v1:0',
	'claude-opus-4-20250514': 'anthropic.claude-opus-4-20250514-v1:0',
	'claude-opus-4-1-20250805': 'anthropic.claude-opus-4-1-20250805-v1:0',
	'claude-sonnet-4-5-20250929': 'anthropic.claude-sonnet-4-5-20250929-v1:0',
	'claude-haiku-4-5-20251001': 'anthropic.claude-haiku-4-5-20251001-v1:0',
	'claude-opus-4-5-20251101': 'anthropic.claude-opus-4-5-20251101-v1:0',
	'claude-opus-4-6': 'anthropic.claude-opus-4-6-v1',
	'claude-sonnet-4-6': 'anthropic.claude-sonnet-4-6',
}

export function bedrockModelId(model: string): string {
	return Object.hasOwn(BEDROCK_MODEL_IDS, model) ? BEDROCK_MODEL_IDS[model]! : model
}
