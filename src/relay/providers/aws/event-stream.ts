/**
 * The AWS event stream encoding (`application/vnd.amazon.eventstream`), decoded as bytes arrive.
 * A message is: total length (4 bytes), headers length (4), a CRC32 of those 8 bytes (4), the
 * headers, the payload, and a CRC32 of everything before it (4); integers are big-endian. A message
 * may span reads and a read may hold several messages. A broken length or checksum is a SyntaxError.
 */
import type { BodyReader } from '@/lib/outbound'

/** Bun's own CRC-32 (zlib's): node:zlib would load Node's stream machinery at start for this alone. */
const crc32 = (bytes: Uint8Array) => Bun.hash.crc32(bytes)

const PRELUDE_LENGTH = 8
const CHECKSUM_LENGTH = 4
/** The prelude, its checksum and the message checksum. */
const MESSAGE_OVERHEAD = PRELUDE_LENGTH + 2 * CHECKSUM_LENGTH
/** The encoding's own limit on a message (16 MiB); a larger length means a corrupt stream. */
const MAX_MESSAGE_LENGTH = 16 * 1024 * 1024

/** Header value types of the encoding and the size of the fixed-size ones. */
const HEADER_TYPE = { true: 0, false: 1, byte: 2, short: 3, integer: 4, long: 5, bytes: 6, string: 7, timestamp: 8, uuid: 9 } as const
const FIXED_VALUE_LENGTH: Record<number, number> = { [HEADER_TYPE.byte]: 1, [HEADER_TYPE.short]: 2, [HEADER_TYPE.integer]: 4, [HEADER_TYPE.long]: 8, [HEADER_TYPE.timestamp]: 8, [HEADER_TYPE.uuid]: 16 }

type HeaderValue = string | number | bigint | boolean | Uint8Array | Date

export interface EventStreamMessage {
	headers: Record<string, HeaderValue>
	payload: Uint8Array
}

const textDecoder = new TextDecoder('utf-8', { fatal: true })

function decodeHeaders(bytes: Uint8Array): Record<string, HeaderValue> {
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
	const headers: Record<string, HeaderValue> = {}
	let offset = 0
	const need = (length: number) => {
		if (offset + length > bytes.byteLength) throw new SyntaxError('an event stream header runs past its section')
	}
	while (offset < bytes.byteLength) {
		need(1)
		const nameLength = view.getUint8(offset)
		offset += 1
		need(nameLength + 1)
		const name = textDecoder.decode(bytes.subarray(offset, offset + nameLength))
		offset += nameLength
		const type = view.getUint8(offset)
		offset += 1
		if (type === HEADER_TYPE.true || type === HEADER_TYPE.false) {
			headers[name] = type === HEADER_TYPE.true
			continue
		}
		if (type === HEADER_TYPE.bytes || type === HEADER_TYPE.string) {
			need(2)
			const length = view.getUint16(offset)
			offset += 2
			need(length)
			const value = bytes.subarray(offset, offset + length)
			headers[name] = type === HEADER_TYPE.string ? textDecoder.decode(value) : value.slice()
			offset += length
			continue
		}
		const length = FIXED_VALUE_LENGTH[type]
		if (length === undefined) throw new SyntaxError(`unknown event stream header type ${type}`)
		need(length)
		if (type === HEADER_TYPE.byte) headers[name] = view.getInt8(offset)
		else if (type === HEADER_TYPE.short) headers[name] = view.getInt16(offset)
		else if (type === HEADER_TYPE.integer) headers[name] = view.getInt32(offset)
		else if (type === HEADER_TYPE.long) headers[name] = view.getBigInt64(offset)
		else if (type === HEADER_TYPE.timestamp) headers[name] = new Date(Number(view.getBigInt64(offset)))
		else headers[name] = bytes.slice(offset, offset + length)
		offset += length
	}
	return headers
}

/** One whole message (its checksums already in it) → headers and payload. */
function decodeMessage(message: Uint8Array): EventStreamMessage {
	const view = new DataView(message.buffer, message.byteOffset, message.byteLength)
	const totalLength = view.getUint32(0)
	const headersLength = view.getUint32(4)
	if (totalLength !== message.byteLength || headersLength > totalLength - MESSAGE_OVERHEAD) throw new SyntaxError('an event stream message has inconsistent lengths')
	if (crc32(message.subarray(0, PRELUDE_LENGTH)) !== view.getUint32(PRELUDE_LENGTH)) throw new SyntaxError('an event stream prelude checksum does not match')
	const bodyEnd = totalLength - CHECKSUM_LENGTH
	if (crc32(message.subarray(0, bodyEnd)) !== view.getUint32(bodyEnd)) throw new SyntaxError('an event stream message checksum does not match')
	const headersStart = PRELUDE_LENGTH + CHECKSUM_LENGTH
	return {
		headers: decodeHeaders(message.subarray(headersStart, headersStart + headersLength)),
		payload: message.slice(headersStart + headersLength, bodyEnd),
	}
}

interface EventStreamReader {
	/** The next message, or undefined at a clean end of the stream. */
	next(): Promise<EventStreamMessage | undefined>
	cancel(reason?: unknown): Promise<void>
}

/** Messages from a body, one read at a time; only the bytes of the message being assembled are kept. */
export function readEventStream(reader: BodyReader): EventStreamReader {
	let pending = new Uint8Array(0)
	let ended = false

	const append = (bytes: Uint8Array) => {
		const joined = new Uint8Array(pending.byteLength + bytes.byteLength)
		joined.set(pending)
		joined.set(bytes, pending.byteLength)
		pending = joined
	}

	/** A whole message at the front of `pending`, cut off it, or undefined when more bytes are needed. */
	const takeMessage = () => {
		if (pending.byteLength < PRELUDE_LENGTH + CHECKSUM_LENGTH) return undefined
		const view = new DataView(pending.buffer, pending.byteOffset, pending.byteLength)
		// The prelude is checked before its length is trusted, so a corrupt length never makes us wait for bytes that will not come.
		if (crc32(pending.subarray(0, PRELUDE_LENGTH)) !== view.getUint32(PRELUDE_LENGTH)) throw new SyntaxError('an event stream prelude checksum does not match')
		const totalLength = view.getUint32(0)
		if (totalLength < MESSAGE_OVERHEAD || totalLength > MAX_MESSAGE_LENGTH) throw new SyntaxError('an event stream message has an impossible length')
		if (pending.byteLength < totalLength) return undefined
		const message = pending.subarray(0, totalLength)
		pending = pending.slice(totalLength)
		return decodeMessage(message)
	}

	return {
		async next() {
			for (;;) {
				const message = takeMessage()
				if (message) return message
				if (ended) {
					if (pending.byteLength > 0) throw new SyntaxError('the event stream ended inside a message')
					return undefined
				}
				const chunk = await reader.read()
				if (chunk.done) ended = true
				else append(chunk.value)
			}
		},
		cancel: (reason) => reader.cancel(reason),
	}
}
