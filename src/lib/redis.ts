/**
 * The optional Redis link (docs/operations/postgres-and-redis.md#redis-optional), on Bun's built-in client: one connection for commands and,
 * made with `duplicate()`, one for subscriptions. Redis is a helper, never the record: every caller
 * has a way to work without it (a per-node rate limit, the database's change counter), so nothing
 * here waits for Redis. A command while the link is down fails at once (no offline queue), and one
 * that gets no answer in REDIS_COMMAND_TIMEOUT_MS fails too. After a few such timeouts in a row the
 * link stops asking for a while (redis-breaker.ts), so a hung Redis does not make every call wait.
 *
 * Bun reconnects by itself a number of times; once it gives up, the link tries again every
 * RECONNECT_INTERVAL_MS. Subscriptions are made again after every reconnection (Bun keeps the
 * listeners but the server forgets the subscription). The URL may carry a password: it is never logged.
 */
import { RedisClient } from 'bun'
import type { Logger } from './logger'
import { createRedisBreaker, type RedisBreakerState } from './redis-breaker'

export { REDIS_BREAKER_COOL_DOWN_MS, REDIS_BREAKER_TIMEOUTS, type RedisBreakerState } from './redis-breaker'

/** A Redis answer slower than this counts as Redis being unavailable. */
export const REDIS_COMMAND_TIMEOUT_MS = 250
const CONNECT_TIMEOUT_MS = 2_000
const RECONNECT_INTERVAL_MS = 5_000
/** How long start-up waits for the first connection before serving without Redis. */
const FIRST_CONNECT_WAIT_MS = 2_000

const CLIENT_OPTIONS = { enableOfflineQueue: false, connectionTimeout: CONNECT_TIMEOUT_MS, autoReconnect: true }

export class RedisUnavailableError extends Error {}

export interface RedisLink {
	/** Prepended to every key and channel name, so deployments (or test runs) can share a server. */
	readonly prefix: string
	connected(): boolean
	/** Connected, and the breaker lets commands through: a command now would be sent to Redis. */
	available(): boolean
	breakerState(): RedisBreakerState
	/** Runs one command on the command connection; rejects fast when Redis is down, slow or resting. */
	command<Result>(run: (client: RedisClient) => Promise<Result>): Promise<Result>
	/** Listens on a channel (prefixed) for as long as the link lives, across reconnections. */
	subscribe(channel: string, listener: (message: string) => void): void
	close(): void
}

export async function connectRedis(url: string, prefix: string, logger: Logger): Promise<RedisLink> {
	const client = new RedisClient(url, CLIENT_OPTIONS)
	const subscriptions = new Map<string, (message: string) => void>()
	let subscriber: RedisClient | undefined
	let opening: Promise<unknown> | undefined
	let closed = false
	let reported: 'up' | 'down' | undefined
	const breaker = createRedisBreaker(logger)

	function report(state: 'up' | 'down', error?: unknown) {
		if (reported === state) return
		reported = state
		if (state === 'up') logger.info('Redis connected: rate limits and change notices are shared between nodes')
		else logger.warn('Redis is unreachable: rate limits count per node and changes reach other nodes through the database until it is back', { error: String(error ?? '') })
	}

	async function subscribeAll(connection: RedisClient) {
		for (const [channel, listener] of subscriptions) {
			// Drop the listener Bun kept from before a reconnection, or each message would arrive twice
			// (Bun refuses, by throwing, when the connection is not subscribed to anything yet).
			try {
				await connection.unsubscribe(channel)
			} catch {}
			await connection.subscribe(channel, listener)
		}
	}

	async function openSubscriber() {
		if (subscriber || subscriptions.size === 0 || !client.connected) return
		const connection = await client.duplicate()
		connection.onconnect = () => void subscribeAll(connection).catch((error) => logger.warn('resubscribing to Redis failed', { error: String(error) }))
		connection.onclose = () => {
			// Bun gave up on it: a new one is made once the command connection is back.
			if (subscriber === connection) subscriber = undefined
		}
		subscriber = connection
		await subscribeAll(connection)
	}

	function open() {
		opening ??= client.connect()
			.then(() => openSubscriber())
			.then(() => report('up'))
			.catch((error) => report('down', error))
			.finally(() => {
				opening = undefined
			})
		return opening
	}

	client.onconnect = () => {
		breaker.reset()
		report('up')
		void openSubscriber().catch((error) => logger.warn('subscribing to Redis failed', { error: String(error) }))
	}
	client.onclose = (error) => report('down', error)
	const retry = setInterval(() => {
		if (!closed && !client.connected) void open()
		else if (!closed && !subscriber && subscriptions.size > 0) void openSubscriber().catch(() => {})
	}, RECONNECT_INTERVAL_MS)
	retry.unref?.()

	await Promise.race([open(), Bun.sleep(FIRST_CONNECT_WAIT_MS)])

	return {
		prefix,
		connected: () => client.connected,
		available: () => client.connected && breaker.state() !== 'open',
		breakerState: () => breaker.state(),
		command(run) {
			if (!client.connected) return Promise.reject(new RedisUnavailableError('Redis is not connected'))
			if (!breaker.admit()) return Promise.reject(new RedisUnavailableError('Redis is not asked while it recovers from timeouts'))
			let timer: ReturnType<typeof setTimeout> | undefined
			let timedOut = false
			const timeout = new Promise<never>((_, reject) => {
				timer = setTimeout(() => {
					timedOut = true
					reject(new RedisUnavailableError('Redis did not answer in time'))
				}, REDIS_COMMAND_TIMEOUT_MS)
			})
			const answer = run(client).then((result) => {
				breaker.answered()
				return result
			}, (error: unknown) => {
				// A reply error is an answer; a dropped connection is not.
				if (client.connected) breaker.answered()
				else breaker.failed()
				throw error
			})
			return Promise.race([answer, timeout]).finally(() => {
				clearTimeout(timer)
				if (timedOut) breaker.timedOut()
			})
		},
		subscribe(channel, listener) {
			subscriptions.set(prefix + channel, listener)
			if (subscriber) void subscriber.subscribe(prefix + channel, listener).catch((error) => logger.warn('subscribing to Redis failed', { error: String(error) }))
			else void openSubscriber().catch((error) => logger.warn('subscribing to Redis failed', { error: String(error) }))
		},
		close() {
			closed = true
			clearInterval(retry)
			client.onclose = null
			client.onconnect = null
			if (subscriber) {
				subscriber.onclose = null
				subscriber.onconnect = null
				subscriber.close()
			}
			client.close()
		},
	}
}
