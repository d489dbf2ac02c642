/**
 * A channel's extra setting (`channels.setting`, the editor's "额外设置"): a JSON object whose known
 * keys change what the relay sends to the channel's upstream and what it answers the client. What
 * each key does is in docs/specification/channels.md ("Extra setting"). Keys Ferry does not know are
 * kept as they are, so settings imported from new-api survive; the known ones must have their type.
 */
import { z } from 'zod'
import { CHANNEL_MESSAGES } from './messages/channels'

export const CHANNEL_SETTING_KEYS = {
	systemPrompt: 'system_prompt',
	systemPromptOverride: 'system_prompt_override',
	thinkingToContent: 'thinking_to_content',
	forceFormat: 'force_format',
	passThroughBody: 'pass_through_body_enabled',
	firstTokenTimeout: 'first_token_timeout_seconds',
	proxy: 'proxy',
} as const

/** The longest system prompt a channel may add (characters). */
export const CHANNEL_SYSTEM_PROMPT_MAX_LENGTH = 32_768

/** The longest first-token timeout a channel may set (seconds): an hour, longer than any upstream's first byte. */
export const CHANNEL_FIRST_TOKEN_TIMEOUT_MAX_SECONDS = 3_600

const firstTokenTimeout = z.number().min(0).max(CHANNEL_FIRST_TOKEN_TIMEOUT_MAX_SECONDS)

const BOOLEAN_KEYS = [
	CHANNEL_SETTING_KEYS.systemPromptOverride, CHANNEL_SETTING_KEYS.thinkingToContent, CHANNEL_SETTING_KEYS.forceFormat, CHANNEL_SETTING_KEYS.passThroughBody,
] as const

/** The known keys as the relay reads them; a value of the wrong type (a row written before the check) reads as absent. */
export const channelSettingSchema = z.object({
	system_prompt: z.string().max(CHANNEL_SYSTEM_PROMPT_MAX_LENGTH).optional().catch(undefined),
	system_prompt_override: z.boolean().optional().catch(undefined),
	thinking_to_content: z.boolean().optional().catch(undefined),
	force_format: z.boolean().optional().catch(undefined),
	pass_through_body_enabled: z.boolean().optional().catch(undefined),
	/**
	 * Seconds a streamed answer may go after its head without content before the attempt is given up
	 * and the call moves on (0: never); absent: the server's `UPSTREAM_FIRST_TOKEN_TIMEOUT_SECONDS`.
	 */
	first_token_timeout_seconds: firstTokenTimeout.optional().catch(undefined),
})
export type ChannelSetting = z.infer<typeof channelSettingSchema>

/** The known keys of a parsed setting object, leniently: what the relay applies. */
export function readChannelSetting(value: Record<string, unknown>): ChannelSetting {
	const parsed = channelSettingSchema.safeParse(value)
	return parsed.success ? parsed.data : {}
}

/**
 * The problems of a setting object's known keys, as messages with their values: a known boolean key
 * that is not a boolean, a system prompt that is not a string or is too long, a first-token timeout
 * that is not a number of seconds from 0 to the maximum, and `proxy` (refused:
 * Ferry's outbound client connects only to addresses it has checked itself, which a proxy would
 * resolve and reach on its own).
 */
export function channelSettingProblems(value: Record<string, unknown>): { message: string; params: Record<string, string | number> }[] {
	const problems: { message: string; params: Record<string, string | number> }[] = []
	for (const key of BOOLEAN_KEYS) {
		if (key in value && typeof value[key] !== 'boolean') problems.push({ message: CHANNEL_MESSAGES.settingBoolean, params: { key } })
	}
	const prompt = value[CHANNEL_SETTING_KEYS.systemPrompt]
	if (prompt !== undefined && (typeof prompt !== 'string' || prompt.length > CHANNEL_SYSTEM_PROMPT_MAX_LENGTH)) {
		problems.push({ message: CHANNEL_MESSAGES.settingSystemPrompt, params: { max: CHANNEL_SYSTEM_PROMPT_MAX_LENGTH } })
	}
	const timeout = value[CHANNEL_SETTING_KEYS.firstTokenTimeout]
	if (timeout !== undefined && !firstTokenTimeout.safeParse(timeout).success) {
		problems.push({ message: CHANNEL_MESSAGES.settingFirstTokenTimeout, params: { max: CHANNEL_FIRST_TOKEN_TIMEOUT_MAX_SECONDS } })
	}
	const proxy = value[CHANNEL_SETTING_KEYS.proxy]
	if (proxy !== undefined && proxy !== '') problems.push({ message: CHANNEL_MESSAGES.settingProxyUnsupported, params: {} })
	return problems
}
