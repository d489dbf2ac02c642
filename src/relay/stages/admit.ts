/**
 * The admit stage: whether Ferry takes the call at all, decided before anything is priced or held.
 * It checks the canonical request (formats/openai/requests.ts), the prompt's sensitive words, the
 * token's model limits and the caller's group, and refuses a call no channel can take: a 400
 * `endpoint_not_supported` when the model's channels (or the pinned one) lack the endpoint, a 404
 * when no channel of the caller's groups lists the model, a 503 when those that list it cannot take
 * it now. It answers the call with what the other stages route by.
 * Throws a RelayError (in no format: the edge renders it).
 */
import type { Dependencies } from '@/dependencies'
import { RelayError, relayErrors } from '../errors'
import type { CanonicalRequest } from '../formats/canonical'
import { checkOpenAIRequest, isStreamable, type OpenAIRequest } from '../formats/openai/requests'
import { servesEndpoint, type ServiceCall } from '../providers/registry'
import type { RelayEndpoint } from '../providers/types'
import { noChannelError, resolveGroup } from '../routing/groups'
import type { RoutableChannel } from '../routing/routing-table'
import { findWords, promptTexts, sensitiveErrors, wordList } from '../sensitive-words/words'
import type { RelayServices } from '../services'
import { canTakeKey, channelCanTake } from '../upstream/open'
import type { RelayCaller } from '../caller'
import type { AdmittedCall, CallStart, ChannelAcceptance } from './call'

/** Only chat and completions generate text that could carry a sensitive word. */
export const generatesText = (endpoint: RelayEndpoint) => endpoint === 'chat' || endpoint === 'completions'

/** The edge has waited for the routing table to be ready. */
export async function admit(dependencies: Dependencies, relay: RelayServices, start: CallStart): Promise<AdmittedCall> {
	const { requestId, caller } = start
	const { endpoint } = start.request
	const body = checkOpenAIRequest(endpoint, start.request.body, start.request.upload)
	const promptWords = relay.sensitiveWords.forPrompts()
	if (promptWords) {
		const found = await findWords(promptWords, promptTexts(endpoint, body, start.request.extras))
		if (found.length > 0) {
			dependencies.logger.warn('a prompt with sensitive words was refused', { requestId, userId: caller.user.id, words: wordList(found) })
			throw sensitiveErrors.prompt(found)
		}
	}
	const model = body.model
	allowModel(caller, model)
	const stream = isStreamable(endpoint) && body.stream === true
	// Answers are checked for sensitive words in OpenAI's form, so with that check on a client's own
	// format is converted rather than passed through.
	const checksAnswers = generatesText(endpoint) && relay.sensitiveWords.forAnswers() !== undefined
	const requested = start.request.native
	if (checksAnswers && requested?.required) throw relayErrors.badRequest(`${requested.required}, and answers are checked for sensitive words here, which such a channel's answers cannot be`)
	const native = checksAnswers ? undefined : requested
	const service: ServiceCall = { endpoint, stream, native: native?.format, nativeRequired: native?.required !== undefined }
	const acceptance: ChannelAcceptance = { accepts: (channel) => channelCanTake(channel, { ...service, model }), cacheKey: canTakeKey(service) }
	const group = callGroup(dependencies, relay, caller, model, acceptance)
	checkChannels(dependencies, relay, caller, group, model, acceptance, service, native?.required)
	// The same object, from now on with the checked body and what the stages route by (call.ts).
	const admitted = start as AdmittedCall
	admitted.request = start.request as CanonicalRequest<OpenAIRequest>
	admitted.model = model
	admitted.stream = stream
	admitted.native = native
	admitted.service = service
	admitted.acceptance = acceptance
	admitted.group = group
	return admitted
}

/** The token's model limits: a model it does not list is refused (403) before anything else. */
export function allowModel(caller: RelayCaller, model: string) {
	if (caller.token.modelLimits && !caller.token.modelLimits.has(model)) throw relayErrors.modelNotAllowed(model)
}

/**
 * The group a call of the model is routed and billed in: the token's, the user's, or (for a token
 * of the auto group) the first usable group with a channel that can take it (routing/groups.ts).
 * Async tasks ask here too, with their own acceptance (relay/tasks/submission.ts).
 */
export function callGroup(dependencies: Dependencies, relay: RelayServices, caller: RelayCaller, model: string, acceptance: Pick<ChannelAcceptance, 'accepts'> & { cacheKey?: string }): string {
	return resolveGroup(dependencies.options, caller, model, (candidate, name) => relay.routing.hasModel(candidate, name, acceptance.accepts, acceptance.cacheKey))
}

/**
 * Before anything is held: some channel can take the call. A pinned channel, or every channel of
 * the model, whose type lacks the endpoint makes a clear client error (400) rather than a failed
 * attempt; channels whose model mapping loops leave the model without a channel. A model no channel
 * lists is a 404 (noChannelError), checked only once the call has failed to find one.
 */
function checkChannels(
	dependencies: Dependencies, relay: RelayServices, caller: RelayCaller, group: string, model: string,
	acceptance: ChannelAcceptance, call: ServiceCall, nativeRequired?: string,
) {
	const { pinnedChannelId } = caller
	const serves = (channel: RoutableChannel) => servesEndpoint(channel.type, call.endpoint, call.stream, call.native, call.nativeRequired)
	const unsupported = (modelName?: string) => nativeRequired
		? new RelayError(400, `${modelName ? `no channel serving the model ${modelName}` : 'this channel type'} can take this request: ${nativeRequired}`, 'invalid_request_error', 'endpoint_not_supported')
		: relayErrors.endpointUnsupported(call.endpoint, call.stream, modelName)
	if (pinnedChannelId !== undefined) {
		const pinned = relay.routing.channel(pinnedChannelId)
		if (pinned && !serves(pinned)) throw unsupported()
		if (pinned && !acceptance.accepts(pinned)) throw relayErrors.noChannel(group, model)
		return
	}
	if (relay.routing.hasModel(group, model, acceptance.accepts, acceptance.cacheKey)) return
	const endpointLacking = relay.routing.hasModel(group, model) && !relay.routing.hasModel(group, model, serves)
	throw endpointLacking ? unsupported(model) : noChannelError(dependencies.options, relay.routing, caller, group, model)
}
