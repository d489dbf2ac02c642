/** What sign-in and binding through another service answer when they say no. */
export const OAUTH_MESSAGES = {
	disabled: (label: string) => `administrator has not enabled ${label} login`,
	notConfigured: (label: string) => `${label} login is not configured, please contact the administrator`,
	alreadyBound: (label: string) => `this ${label} account is already bound`,
	unreachable: (label: string) => `could not reach ${label}, please try again later`,
	unreadable: (label: string) => `${label} gave an unexpected answer, please try again later`,
	codeRejected: (label: string) => `${label} did not accept the authorization, please try again`,
	banned: 'the user has been banned',
	codeMissing: 'the authorization code is missing',
	stateInvalid: 'the authorization state is invalid or expired, please start again',
	usernameUnavailable: 'could not pick a username for the new account, please try again',
	linuxdoInactive: 'this LinuxDO account is not active',
	telegramInvalid: 'the Telegram login data is invalid',
	telegramExpired: 'the Telegram login data has expired, please log in again',
	telegramUsed: 'the Telegram login data has already been used, please log in again',
	weChatRefused: 'WeChat login failed',
	bound: 'bind',
} as const
