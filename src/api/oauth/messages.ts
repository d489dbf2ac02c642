/** What sign-in and binding through another service answer when they say no: the catalogue's group. */
import { type LocalizedMessage, type MessageValue, withValues } from '@shared/messages'
import { OAUTH_MESSAGES } from '@shared/messages/oauth'

export { OAUTH_MESSAGES }

/** The service's name as readers know it: WeChat is 微信 in Chinese, the others keep their names. */
const providerName = (label: string): MessageValue => (label === 'WeChat' ? { zh: '微信', en: 'WeChat' } : label)

type ProviderText = (typeof OAUTH_MESSAGES)['disabled' | 'notConfigured' | 'alreadyBound' | 'notBound' | 'lastSignIn' | 'unreachable' | 'unreadable' | 'codeRejected']

/** A message that names the service. */
export const aboutProvider = (text: ProviderText, label: string): LocalizedMessage => withValues(text, { provider: providerName(label) })
