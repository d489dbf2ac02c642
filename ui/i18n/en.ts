/** English texts keyed by the zh source string. A key missing here is shown in Chinese. */
export const en: Record<string, string> = {
	// errors (seed 000 §8)
	'未登录或登录已过期，请重新登录': 'Not logged in or login expired, please log in again',
	'请求次数过多，请稍后再试': 'Too many requests, please try again later',
	'服务器内部错误，请联系管理员': 'Server internal error, please contact the administrator',
	'本站仅作演示之用，无服务端': 'This site is for demo only, there is no server',
	'错误：{message}': 'Error: {message}',
	'出错了，请刷新页面重试': 'Something went wrong, please reload the page',
	'页面不存在，请检查地址': 'The page does not exist, please check the address',
	'返回首页': 'Back to home',
	'关闭': 'Close',
	// login
	'登录': 'Log in',
	'登录 {name}': 'Log in to {name}',
	'使用用户名和密码登录': 'Use your username and password',
	'用户名': 'Username',
	'密码': 'Password',
	'用户名或邮箱': 'Username or email',
	'请输入密码': 'Enter your password',
	'请输入用户名和密码': 'Please enter username and password',
	'忘记密码？': 'Forgot password?',
	'还没有账户？': 'No account yet?',
	'注册': 'Register',
	'登录中…': 'Logging in…',
	'登录成功': 'Logged in',
	'其他登录方式': 'Or log in with',
	'微信': 'WeChat',
	'微信扫码登录': 'Log in with WeChat',
	'扫码关注公众号，发送“验证码”获取登录验证码（3 分钟内有效）。':
		'Scan the code to follow the official account and send "验证码" to get a login code (valid for 3 minutes).',
	'微信公众号二维码': 'WeChat official account QR code',
	'验证码': 'Verification code',
	'请立即修改默认密码': 'Change the default password now',
	'你正在使用默认密码，任何人都可能登录这个账户。请立即修改密码。':
		'You are using the default password, so anyone could log in to this account. Change it now.',
	'前往修改密码': 'Change password',
	// home
	'控制台的其他页面还在建设中。': 'The rest of the console is still being built.',
}
