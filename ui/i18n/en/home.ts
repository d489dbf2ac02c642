/** English texts of ui/features/home and ui/features/about, keyed by the zh source string. */
export const home: Record<string, string> = {
	'自托管的大模型 API 网关：一个兼容 OpenAI 的接口连接多家上游，按额度计费，并提供管理控制台。':
		'A self-hosted LLM API gateway: one OpenAI-compatible API in front of many upstreams, with quota billing and a management console.',
	'进入控制台': 'Open the console',
	'公告': 'Notice',
	'管理员暂未设置关于页面的内容。': 'The administrator has not set the about content yet.',
	'阅读 Ferry 的文档（仅管理员可见）': 'Read Ferry\'s documentation (shown to admins only)',
}
