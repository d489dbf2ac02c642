/**
 * Loopback listeners for the outbound-client tests. A canary counts every TCP connection made to
 * it (not only complete requests, so a refused target that was merely dialled still shows up) and
 * answers each request with `200 canary`. An allowed request can show two connections: the
 * outbound client's connect probe and the request itself. A stalled listener accepts no
 * connection at all, to make a connect attempt hang.
 */
import type { Socket } from 'bun'

export interface CanaryRequest {
	method: string
	path: string
	host: string | undefined
}

export interface Canary {
	hostname: string
	port: number
	/** `http://host:port`, with brackets for IPv6. */
	origin: string
	connections: number
	requests: CanaryRequest[]
	reset(): void
	stop(): void
}

function answer(socket: Socket<{ received: string }>, chunk: Buffer, requests: CanaryRequest[]) {
	socket.data.received += chunk.toString('latin1')
	const end = socket.data.received.indexOf('\r\n\r\n')
	if (end === -1) return
	const [requestLine = '', ...headerLines] = socket.data.received.slice(0, end).split('\r\n')
	const [method = '', path = ''] = requestLine.split(' ')
	const host = headerLines.find((line) => line.toLowerCase().startsWith('host:'))?.slice(5).trim()
	requests.push({ method, path, host })
	socket.end('HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 6\r\nconnection: close\r\n\r\ncanary')
}

export function openCanary(hostname = '127.0.0.1'): Canary {
	const canary = {
		hostname,
		port: 0,
		origin: '',
		connections: 0,
		requests: [] as CanaryRequest[],
		reset() {
			canary.connections = 0
			canary.requests.length = 0
		},
		stop() {
			listener.stop(true)
		},
	}
	const listener = Bun.listen<{ received: string }>({
		hostname,
		port: 0,
		socket: {
			open(socket) {
				canary.connections++
				socket.data = { received: '' }
			},
			data: (socket, chunk) => answer(socket, chunk, canary.requests),
			error() {},
		},
	})
	canary.port = listener.port
	canary.origin = `http://${hostname.includes(':') ? `[${hostname}]` : hostname}:${listener.port}`
	return canary
}

export interface StalledListener {
	port: number
	close(): void
}

function loadLibc(ffi: typeof import('bun:ffi')) {
	const { i32, u32, ptr: pointer } = ffi.FFIType
	return ffi.dlopen('libc.so.6', {
		socket: { args: [i32, i32, i32], returns: i32 },
		bind: { args: [i32, pointer, u32], returns: i32 },
		listen: { args: [i32, i32], returns: i32 },
		getsockname: { args: [i32, pointer, pointer], returns: i32 },
		close: { args: [i32], returns: i32 },
	})
}

/**
 * A socket on 127.0.0.1 that listens with a backlog of zero and never accepts; one filler
 * connection takes the only slot, so further connection attempts hang (SYNs are dropped).
 * Made through libc, since Bun's listeners always accept. Undefined where libc cannot be loaded.
 */
export async function openStalledListener(): Promise<StalledListener | undefined> {
	let ffi: typeof import('bun:ffi')
	let libc: ReturnType<typeof loadLibc>
	try {
		ffi = await import('bun:ffi')
		libc = loadLibc(ffi)
	} catch {
		return undefined
	}
	const { socket, bind, listen, getsockname, close } = libc.symbols
	const descriptor = socket(2, 1, 0)
	// struct sockaddr_in: family AF_INET, port 0 (any), address 127.0.0.1
	const address = new Uint8Array([2, 0, 0, 0, 127, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0])
	const length = new Uint32Array([16])
	if (descriptor < 0 || bind(descriptor, ffi.ptr(address), 16) !== 0 || listen(descriptor, 0) !== 0
		|| getsockname(descriptor, ffi.ptr(address), ffi.ptr(length)) !== 0) {
		if (descriptor >= 0) close(descriptor)
		libc.close()
		return undefined
	}
	const port = (address[2]! << 8) | address[3]!
	const { connect } = await import('node:net')
	const filler = connect({ host: '127.0.0.1', port })
	filler.on('error', () => {})
	await new Promise((resolve) => filler.once('connect', resolve))
	return {
		port,
		close() {
			filler.destroy()
			close(descriptor)
			libc.close()
		},
	}
}

export interface SilentListener {
	port: number
	/** TCP connections accepted so far. */
	connections: number
	stop(): void
}

/**
 * A listener on 127.0.0.1 that accepts every connection and never sends a byte: reached over
 * https, the TLS handshake never finishes (the ClientHello goes unanswered).
 */
export function openSilentListener(): SilentListener {
	const silent = {
		port: 0,
		connections: 0,
		stop: () => listener.stop(true),
	}
	const listener = Bun.listen({
		hostname: '127.0.0.1',
		port: 0,
		socket: {
			open() {
				silent.connections++
			},
			data() {},
			error() {},
		},
	})
	silent.port = listener.port
	return silent
}
