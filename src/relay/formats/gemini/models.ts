/**
 * Gemini's model list (`GET /v1beta/models`, `GET /v1beta/models/{model}`) in its own shape:
 * `{models: [{name: 'models/…', …, supportedGenerationMethods}]}`. Ferry knows a model's name, not its
 * token limits (left out) nor what it does: a name that says `embed` is offered the embedding methods,
 * any other the chat ones.
 */
const CHAT_METHODS = ['generateContent', 'streamGenerateContent', 'countTokens']
const EMBEDDING_METHODS = ['embedContent', 'batchEmbedContents']

const EMBEDDING_NAME = /embed/i

/** A model the caller may use, in Gemini's shape. */
export function geminiModel(id: string) {
	const embeds = EMBEDDING_NAME.test(id)
	return {
		name: `models/${id}`,
		baseModelId: id,
		version: '001',
		displayName: id,
		description: '',
		supportedGenerationMethods: embeds ? EMBEDDING_METHODS : CHAT_METHODS,
	}
}

/** The name a path gives a model: `gemini-2.5-pro` or `models/gemini-2.5-pro`. */
export const modelIdOfName = (name: string) => name.replace(/^models\//, '')
