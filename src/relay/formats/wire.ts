/**
 * Reading answers in each wire format the relay passes on (docs/architecture.md#the-relay): the usage to bill and the
 * generated text (for local counting when an answer reports no usage), from whole answers and, one
 * event at a time, from streams. OpenAI's form is the canonical one; Claude's and Gemini's are read
 * when a channel speaks the client's own format and its answer passes through unconverted.
 */
import type { Usage } from '@/billing/price'
import type { Json, WireFormat } from './events'
import { claudeWire } from './claude/wire'
import { geminiWire } from './gemini/wire'
import { openAIWire } from './openai/wire'
import { responsesWire } from './responses/wire'

export interface WireReader {
	/** The usage a whole answer reports, as billed; undefined when it reports none. */
	usageOf(answer: Json): Usage | undefined
	/** The text a whole answer generated (content, reasoning, tool calls). */
	textOf(answer: Json): string
	/** A reader for one stream's events. */
	stream(): StreamInspector
}

export interface StreamInspector {
	/** Reads one data event; throws a SyntaxError when it has the wrong shape. */
	inspect(data: Json): EventReading
	/** The usage the stream reported so far, as billed. */
	usage(): Usage | undefined
	/**
	 * Whether an event's data (JSON text, not parsed) may carry what billing reads besides text —
	 * usage, the end — so that it must be parsed when a stream passes through unread
	 * (stream-meter.ts). A wire format without it never passes events on unread.
	 */
	needsReading?(json: string): boolean
	/**
	 * What an upstream stream that ends without its end event means: nothing (undefined) for formats
	 * whose streams simply end; else the stream failed and the client is told this message.
	 */
	readonly cutMessage?: string
}

interface EventReading {
	/** The text the event generated ('' for none). */
	text: string
	/** The event ends the stream: the upstream completed it, or reported that it failed (its own error event). */
	end?: 'completed' | 'failed'
	/** The event carries only usage (OpenAI's last chunk), which a client that did not ask for it does not get. */
	usageOnly?: boolean
}

const WIRES: Record<WireFormat, WireReader> = { openai: openAIWire, claude: claudeWire, gemini: geminiWire, responses: responsesWire }

export const wireReader = (format: WireFormat): WireReader => WIRES[format]
