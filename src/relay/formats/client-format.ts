/**
 * A client format's encoder at the edge of the relay (docs/architecture.md#the-relay): how it answers a whole answer and a
 * stream, given the relay's typed result (failures it answers with its ErrorResponder). The result is in the client's own wire format when the
 * channel spoke it (pass-through: the format sends it on as it came) or in OpenAI's, the canonical
 * form (the format converts it). One object per request, so it may hold what the request said
 * (the model asked for, Gemini's stream framing).
 */
import type { EventReader, Json, WireFormat } from './events'

/** The channel and key (`#index`) an answer came from. */
export interface AnsweredBy {
	channelId: number
	keyIndex: number
}

export interface ClientFormat {
	/**
	 * A whole answer in `wire` → the JSON text the client gets. `text` is `answer` exactly as the
	 * upstream sent it, when it is that: a format that passes the answer on sends these bytes.
	 * `answeredBy` is the channel and key that answered (a format whose upstreams keep answers remembers it).
	 */
	answerText(answer: Json, wire: WireFormat, text: string | undefined, answeredBy: AnsweredBy): string | Promise<string>
	/**
	 * A stream's events in `wire` → the client's bytes (encodedStream), sent with `streamContentType`.
	 * `promptTokens` is the prompt as Ferry counts it, given when `countsPrompt` asked for it.
	 */
	stream(events: EventReader, wire: WireFormat, answeredBy: AnsweredBy, promptTokens?: Promise<number>): ReadableStream<Uint8Array>
	/** Whether the format's stream in `wire` tells the prompt's size before the upstream does (Claude's `message_start`). */
	countsPrompt?(wire: WireFormat): boolean
	streamContentType: string
	/**
	 * The wire format whose stream events this format writes exactly as they came (their `raw`
	 * bytes, `other` events included): a stream in it may pass through unread (stream-meter.ts).
	 */
	passThroughWire?: WireFormat
}
