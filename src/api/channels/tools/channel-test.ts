/**
 * Testing one channel (docs/specification/channels.md#the-channel-tools `GET /api/channel/test/{id}`): a tiny non-stream call through
 * the channel's adaptor with the `ChannelTestPrompt` option's text, timed. The channel's `response_time` and `test_time` are recorded, and the
 * call's cost is written to the log as a consume entry marked `channel_test` for the admin who
 * ran it, but never charged: no hold, no balance or used-quota change.
 */
import { eq } from 'drizzle-orm'
import { LOG_TYPE } from '@shared/log'
import { type ServerMessage, withValues } from '@shared/messages'
import { CHANNEL_TOOL_MESSAGES } from '@shared/messages/channels'
import { logLine } from '@shared/messages/logs'
import { ROLE } from '@shared/user'
import { quotaForUsage, resolvePricing, type Usage } from '@/billing/price'
import type { Dependencies } from '@/dependencies'
import { nowSeconds } from '@/lib/clock'
import { newRequestId } from '@/lib/crypto'
import { OutboundError } from '@/lib/outbound'
import { NO_EXTRAS } from '@/relay/formats/canonical'
import { answerText, usageFrom } from '@/relay/formats/openai/usage'
import { ChannelUnfitError, openUpstream } from '@/relay/upstream/open'
import { countPrompt, countText, type PromptRequest } from '@/billing/tokenizer'
import { capabilities } from '@/relay/providers/registry'
import type { RelayEndpoint } from '@/relay/providers/types'
import { outboundFailure, toolOutbound, upstreamFailure, type ToolChannel } from './upstream'

/** What new-api tests with when a channel names no model at all. */
const FALLBACK_TEST_MODEL = 'gpt-4o-mini'
const TEST_MAX_TOKENS = 16
/** The whole test, including reading the answer. */
const TEST_DEADLINE_MS = 60_000
const MILLISECONDS_PER_SECOND = 1000
const TEST_TOKEN_NAME = 'channel test'

export interface ChannelTestOutcome {
	success: boolean
	/** Why it failed (a catalogue message); empty on success. */
	message: ServerMessage | ''
	/** Milliseconds the call took (until the whole answer was read). */
	time: number
}

/** Who the test's log entry belongs to. */
export interface TestRunner {
	userId: number
	username: string
	group: string
}

const TEST_MESSAGES = CHANNEL_TOOL_MESSAGES

function testModelOf(channel: ToolChannel, requested?: string): string {
	return requested?.trim() || channel.testModel || channel.models[0] || FALLBACK_TEST_MODEL
}

/**
 * The endpoint a test calls, as the type's capabilities say: chat when it serves it however it
 * does (iFlytek Spark opens its own WebSocket), else embeddings (embedding-only upstreams such as Jina).
 */
export function testEndpoint(type: number): RelayEndpoint | undefined {
	return capabilities(type)?.testEndpoint
}

/** `prompt` is `ChannelTestPrompt`: the one user message of a chat test, the input of an embeddings test. */
function testBody(endpoint: RelayEndpoint, model: string, prompt: string): Record<string, unknown> {
	return endpoint === 'chat'
		? { model, messages: [{ role: 'user', content: prompt }], max_tokens: TEST_MAX_TOKENS }
		: { model, input: prompt }
}

function promptOf(endpoint: RelayEndpoint, prompt: string): PromptRequest {
	return endpoint === 'chat' ? { endpoint, messages: [{ role: 'user', content: prompt }] } : { endpoint: 'embeddings', input: prompt }
}

function failureMessage(error: unknown): ServerMessage {
	if (error instanceof ChannelUnfitError) return error.message === 'model mapping cycle' ? TEST_MESSAGES.mappingCycle : TEST_MESSAGES.cannotTest
	// Outbound errors name scheme, host and port only; anything else is described by its kind.
	if (error instanceof OutboundError) return outboundFailure(error, TEST_MESSAGES.requestFailed)
	if (error instanceof Error && error.name === 'TimeoutError') return withValues(TEST_MESSAGES.testTimedOut, { seconds: TEST_DEADLINE_MS / MILLISECONDS_PER_SECOND })
	return TEST_MESSAGES.requestFailed
}

function isValidAnswer(endpoint: RelayEndpoint, answer: unknown): answer is Record<string, unknown> {
	if (typeof answer !== 'object' || answer === null) return false
	return Array.isArray((answer as Record<string, unknown>)[endpoint === 'embeddings' ? 'data' : 'choices'])
}

/** Sends the test call; never throws for what the upstream does. */
export async function runChannelTest(dependencies: Dependencies, channel: ToolChannel, runner: TestRunner, requestedModel?: string): Promise<ChannelTestOutcome> {
	const model = testModelOf(channel, requestedModel)
	const endpoint = testEndpoint(channel.type)
	if (!endpoint) return { success: false, message: TEST_MESSAGES.cannotTest, time: 0 }
	const prompt = dependencies.options.get('ChannelTestPrompt')
	const started = performance.now()
	const elapsed = () => Math.round(performance.now() - started)
	let outcome: ChannelTestOutcome
	let usage: Usage | undefined
	try {
		const opened = await openUpstream(dependencies, toolOutbound(dependencies), channel, {
			request: { endpoint, body: testBody(endpoint, model, prompt), extras: NO_EXTRAS }, model, stream: false, signal: AbortSignal.timeout(TEST_DEADLINE_MS),
		})
		const text = await opened.response.text()
		if (!opened.response.ok) {
			outcome = { success: false, message: upstreamFailure(opened.response.status, text.slice(0, 64 * 1024), channel), time: elapsed() }
		} else {
			let answer: unknown
			try {
				answer = opened.readAnswer(text).answer
			} catch {
				answer = undefined
			}
			if (!isValidAnswer(endpoint, answer)) outcome = { success: false, message: TEST_MESSAGES.malformed, time: elapsed() }
			else {
				outcome = { success: true, message: '', time: elapsed() }
				usage = usageFrom(answer.usage) ?? { promptTokens: await countPrompt(promptOf(endpoint, prompt)), completionTokens: await countText(answerText(answer)) }
			}
		}
	} catch (error) {
		outcome = { success: false, message: failureMessage(error), time: elapsed() }
	}
	await recordTest(dependencies, channel, outcome, usage, { runner, model, endpoint })
	return outcome
}

/** `response_time` and `test_time` on the channel; on success the uncharged log entry. */
async function recordTest(
	dependencies: Dependencies, channel: ToolChannel, outcome: ChannelTestOutcome, usage: Usage | undefined,
	call: { runner: TestRunner; model: string; endpoint: RelayEndpoint },
) {
	const { store, options } = dependencies
	const { channels, logs } = store.tables
	await store.db.update(channels).set({ responseTime: outcome.time, testTime: nowSeconds() }).where(eq(channels.id, channel.id))
	if (!outcome.success || !usage || !options.get('LogConsumeEnabled')) return
	const group = channel.groups[0] ?? 'default'
	const pricing = resolvePricing(options, call.model, call.runner.group, group)
	const cost = pricing ? quotaForUsage(pricing, usage, options.get('QuotaPerUnit')) : 0
	const ratios = pricing?.kind === 'per_call'
		? { model_price: pricing.modelPrice, group_ratio: pricing.groupRatio }
		: pricing ? { model_ratio: pricing.modelRatio, completion_ratio: pricing.completionRatio, group_ratio: pricing.groupRatio } : {}
	const line = logLine('channel.test', { endpoint: call.endpoint })
	await store.db.insert(logs).values({
		userId: call.runner.userId,
		type: LOG_TYPE.consume,
		quota: cost,
		username: call.runner.username,
		tokenName: TEST_TOKEN_NAME,
		modelName: call.model,
		group,
		promptTokens: usage.promptTokens,
		completionTokens: usage.completionTokens,
		useTime: Math.round(outcome.time / MILLISECONDS_PER_SECOND),
		isStream: false,
		channelId: channel.id,
		channelName: channel.name,
		requestId: newRequestId(),
		content: line.content,
		other: JSON.stringify({ channel_test: true, not_charged: true, ...ratios, admin_info: { use_channel: [channel.id] }, ...line.other }),
	})
}

/** Scheduled tests run as the super admin, as new-api runs them as user 1. */
export async function systemRunner(dependencies: Dependencies): Promise<TestRunner> {
	const { users } = dependencies.store.tables
	const [root] = await dependencies.store.db.select({ id: users.id, username: users.username, group: users.group })
		.from(users).where(eq(users.role, ROLE.root)).orderBy(users.id).limit(1)
	return root ? { userId: root.id, username: root.username, group: root.group } : { userId: 0, username: 'system', group: 'default' }
}
