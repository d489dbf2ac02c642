/** English texts of ui/features/chat, keyed by the zh source string. */
export const chat: Record<string, string> = {
	'聊天': 'Chat',
	'请联系管理员配置聊天链接': 'Please contact the administrator to configure chat links',
	'聊天链接配置错误，请联系管理员': 'The chat link is misconfigured, please contact the administrator',
	'没有可用的已启用令牌': 'No enabled token available',
	'正在打开聊天…': 'Opening the chat…',
	'聊天将在它的应用中打开': 'The chat opens in its app',
	'在应用中打开': 'Open in the app',
	'没有安装这个应用时，点击不会有反应。也可以在任何聊天客户端中手动填写 API 地址和密钥：': 'Without the app installed the button does nothing. You can also enter the API base URL and the key in any chat client:',
	'复制 API 地址': 'Copy the API base URL',
	'复制密钥': 'Copy the key',
}
