/**
 * How a streamed answer's events are read from the upstream's body: read ahead by
 * `StreamCacheQueueLength` (read-ahead.ts), parsed in the answer's wire format, and — when no filter
 * reads the answer and the client speaks that wire — left unparsed for the stream meter to parse only
 * what billing needs. Made once per answer: by the send stage when it waits for the first content
 * (first-content.ts), else by the meter stage.
 */
import type { Dependencies } from '@/dependencies'
import { bodyOrEmpty } from '@/lib/outbound'
import type { EventReader, ReadEvent } from '../formats/events'
import { isMediaEndpoint } from '../formats/media/requests'
import type { AnswerPolicy } from '../sensitive-words/words'
import type { RelayServices } from '../services'
import type { OpenedUpstream } from '../upstream/open'
import { generatesText } from './admit'
import type { HeldCall } from './call'
import { readAhead } from './read-ahead'

export interface StreamSource {
	events: EventReader<ReadEvent>
	/** The sensitive-word policy the answer is checked by, when answers are checked. */
	policy: AnswerPolicy | undefined
}

/** Whether the meter stage reads the call's answer as an event stream (not media, not a video task). */
export const answersAsEventStream = (call: Pick<HeldCall, 'stream' | 'request'>) =>
	call.stream && call.request.endpoint !== 'videos' && !isMediaEndpoint(call.request.endpoint)

export function streamSource(dependencies: Dependencies, relay: RelayServices, call: HeldCall, opened: OpenedUpstream): StreamSource {
	const policy = opened.wire === 'openai' && generatesText(call.request.endpoint) ? relay.sensitiveWords.forAnswers() : undefined
	const body = readAhead(bodyOrEmpty(opened.response), dependencies.options.get('StreamCacheQueueLength'))
	// The client gets the upstream's own events: only what billing needs is parsed (stream-meter.ts).
	const deferParsing = !policy && opened.wire === call.passThroughWire
	return { events: opened.readEvents(body, { deferParsing }), policy }
}
