/** English texts of ui/features/chat, keyed by the zh source string. */
export const chat: Record<string, string> = {
	'聊天': 'Chat',
	'请联系管理员配置聊天链接': 'Please contact the administrator to configure chat links',
	'聊天链接配置错误，请联系管理员': 'The chat link is misconfigured, please contact the administrator',
	'没有可用的已启用令牌': 'No enabled token available',
	'正在打开聊天…': 'Opening the chat…',
	'已在应用中打开聊天': 'The chat was opened in its app',
	'再次打开': 'Open again',
}
