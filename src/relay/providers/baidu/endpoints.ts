/**
 * Model name → the endpoint segment of Baidu's legacy Wenxin Workshop URLs. A model not listed is
 * used lower-cased as its own endpoint, which is how custom Qianfan deployments are named.
 */
const CHAT_ENDPOINTS: Record<string, string> = {
	'ERNIE-4.0-8K': 'completions_pro',
	'ERNIE-Bot-4': 'completions_pro',
	'ERNIE-4.0-Turbo-8K': 'ernie-4.0-turbo-8k',
	'ERNIE-3.5-8K': 'completions',
	'ERNIE-Bot': 'completions',
	'ERNIE-3.5-128K': 'ernie-3.5-128k',
	'ERNIE-Bot-turbo': 'eb-instant',
	'ERNIE-Speed-8K': 'ernie_speed',
	'ERNIE-Speed-128K': 'ernie-speed-128k',
	'ERNIE-Lite-8K': 'ernie-lite-8k',
	'ERNIE-Tiny-8K': 'ernie-tiny-8k',
	'ERNIE-Character-8K': 'ernie-char-8k',
	'ERNIE-Functions-8K': 'ernie-func-8k',
	'BLOOMZ-7B': 'bloomz_7b1',
	'Llama-2-7b-chat': 'llama_2_7b',
	'Llama-2-13b-chat': 'llama_2_13b',
	'Llama-2-70b-chat': 'llama_2_70b',
}

const EMBEDDING_ENDPOINTS: Record<string, string> = {
	'Embedding-V1': 'embedding-v1',
	'bge-large-zh': 'bge_large_zh',
	'bge-large-en': 'bge_large_en',
	'tao-8k': 'tao_8k',
}

export const chatEndpoint = (model: string) => CHAT_ENDPOINTS[model] ?? model.toLowerCase()
export const embeddingEndpoint = (model: string) => EMBEDDING_ENDPOINTS[model] ?? model.toLowerCase()
