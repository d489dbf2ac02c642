import { CHANNEL_TYPE } from '@shared/channel-type'
import { type ChannelTypeDescription, serving } from '../types'

export const siliconflowType: ChannelTypeDescription = {
	type: CHANNEL_TYPE.siliconflow,
	name: 'SiliconCloud',
	defaultBaseUrl: 'https://api.siliconflow.cn',
	defaultModels: ['deepseek-ai/DeepSeek-V3', 'deepseek-ai/DeepSeek-R1', 'Qwen/Qwen3-8B', 'BAAI/bge-m3', 'BAAI/bge-reranker-v2-m3'],
	serves: serving({
		endpoints: { rerank: { stream: false }, chat: { stream: true }, embeddings: { stream: false } },
		listsModels: true,
		readsBalance: true,
	}),
}
