/** What the verification, reset and email-binding calls answer when they say no. */
export const VERIFICATION_MESSAGES = {
	emailRequired: 'please enter an email address',
	emailInvalid: 'invalid email address',
	emailDomainNotAllowed: 'the administrator has enabled the email domain whitelist, and this email domain is not on it',
	emailAliasNotAllowed: 'the administrator does not allow email aliases; use the address without "+" (and, for Gmail, without dots)',
	emailInUse: 'email already in use',
	emailNotRegistered: 'email not registered',
	emailAndCodeRequired: 'email and code are both required',
	resetLinkInvalid: 'reset link invalid or expired',
	serverAddressMissing: 'the administrator has not set the server address, so no reset link can be sent',
	codeSent: 'the verification code has been sent',
	resetMailSent: 'the reset email has been sent',
} as const
