/**
 * WeChat sign-in through a WeChat server (the official-account bridge): the user gets a short
 * code from the official account, and the server tells whose code it is.
 */
import { z } from 'zod'
import type { Dependencies } from '@/dependencies'
import { refused } from '../errors'
import type { Identity } from './identities'
import { withValues } from '@shared/messages'
import { aboutProvider, OAUTH_MESSAGES } from './messages'
import { fetchProviderJson } from './provider-http'

const LABEL = 'WeChat'
const MESSAGE_MAX_LENGTH = 200

const answerSchema = z.object({ success: z.boolean(), message: z.string().optional(), data: z.unknown().optional() })

export async function weChatIdentity(dependencies: Dependencies, code: string): Promise<Identity> {
	const address = dependencies.options.get('WeChatServerAddress')
	if (!address) throw refused(aboutProvider(OAUTH_MESSAGES.notConfigured, LABEL))
	const answer = await fetchProviderJson(dependencies, LABEL, `${address}/api/wechat/user?code=${encodeURIComponent(code)}`, {
		headers: { authorization: dependencies.options.get('WeChatServerToken'), accept: 'application/json' },
	// The WeChat server is the administrator's own, often on a private network: it follows the
	// same consent as channel base URLs (PrivateUpstreamsEnabled).
	}, answerSchema, 'upstream')
	if (!answer.success) {
		const reason = answer.message?.slice(0, MESSAGE_MAX_LENGTH)
		throw refused(reason ? withValues(OAUTH_MESSAGES.weChatAnswered, { reason }) : OAUTH_MESSAGES.weChatRefused)
	}
	if (typeof answer.data !== 'string' || !answer.data.trim()) throw refused(aboutProvider(OAUTH_MESSAGES.unreadable, LABEL))
	return { id: answer.data.trim() }
}
