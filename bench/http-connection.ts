/**
 * One keep-alive HTTP/1.1 connection on a raw socket, one request at a time: the load generator's
 * client. `fetch` costs several times more CPU per call, and on two cores the generator's CPU is
 * taken from the targets it measures. Reads bodies framed by content-length or chunked encoding,
 * which is all that a loopback target answers with.
 */
import type { Socket } from 'bun'

export interface Exchange {
	status: number
	/** Set when the connection failed before the response ended. */
	error?: string
}

type Waiter = (exchange: Exchange) => void

const HEAD_END = Buffer.from('\r\n\r\n')
const LINE_END = Buffer.from('\r\n')

export class HttpConnection {
	private socket: Socket | undefined
	private connecting: Promise<void> | undefined
	private buffer: Buffer = Buffer.alloc(0)
	private waiter: Waiter | undefined
	private status = 0
	/** -1: reading the head; -2: reading chunks; otherwise: body bytes still expected. */
	private remaining = -1

	constructor(private readonly hostname: string, private readonly port: number) {}

	async send(request: Uint8Array): Promise<Exchange> {
		if (!this.socket) await this.connect()
		return new Promise<Exchange>((resolve) => {
			this.waiter = resolve
			this.buffer = Buffer.alloc(0)
			this.remaining = -1
			const written = this.socket!.write(request)
			if (written < request.length) this.fail('short write')
		})
	}

	close() {
		this.socket?.end()
		this.socket = undefined
	}

	private connect() {
		this.connecting ??= Bun.connect({
			hostname: this.hostname,
			port: this.port,
			socket: {
				data: (_socket, data) => this.receive(data),
				close: () => {
					this.socket = undefined
					this.fail('closed')
				},
				error: (_socket, error) => this.fail((error as { code?: string }).code ?? error.message),
			},
		}).then((socket) => {
			socket.setNoDelay(true)
			this.socket = socket
			this.connecting = undefined
		}, (error) => {
			this.connecting = undefined
			throw error
		})
		return this.connecting
	}

	private fail(error: string) {
		const waiter = this.waiter
		this.waiter = undefined
		waiter?.({ status: this.status, error })
	}

	private finish() {
		const waiter = this.waiter
		this.waiter = undefined
		waiter?.({ status: this.status })
	}

	private receive(data: Buffer) {
		this.buffer = this.buffer.length === 0 ? data : Buffer.concat([this.buffer, data])
		if (this.remaining === -1) {
			const headEnd = this.buffer.indexOf(HEAD_END)
			if (headEnd < 0) return
			const head = this.buffer.toString('latin1', 0, headEnd).toLowerCase()
			this.status = Number(head.slice(9, 12))
			const length = /\r\ncontent-length: *(\d+)/.exec(head)
			this.buffer = this.buffer.subarray(headEnd + 4)
			if (length) this.remaining = Number(length[1])
			else if (/\r\ntransfer-encoding: *chunked/.test(head)) this.remaining = -2
			else this.remaining = 0
		}
		if (this.remaining >= 0) {
			if (this.buffer.length >= this.remaining) this.finish()
			return
		}
		this.readChunks()
	}

	private readChunks() {
		let position = 0
		for (;;) {
			const lineEnd = this.buffer.indexOf(LINE_END, position)
			if (lineEnd < 0) break
			const size = Number.parseInt(this.buffer.toString('latin1', position, lineEnd), 16)
			if (size === 0) {
				if (this.buffer.length >= lineEnd + 4) return this.finish()
				break
			}
			const next = lineEnd + 2 + size + 2
			if (this.buffer.length < next) break
			position = next
		}
		this.buffer = this.buffer.subarray(position)
	}
}
