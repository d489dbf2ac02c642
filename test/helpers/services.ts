/**
 * External services a suite needs (Postgres, Redis, Chromium). Locally a missing one skips its
 * suites with a loud line; under CI (`CI=true`) a missing one fails the run.
 */
import { existsSync } from 'node:fs'

const announced = new Set<string>()

export function serviceUnavailable(name: string, hint: string): false {
	if (process.env.CI === 'true') throw new Error(`${name} is required under CI but is not available: ${hint}`)
	if (!announced.has(name)) {
		announced.add(name)
		console.warn(`\n*** SKIPPED: suites needing ${name} (${hint}) ***\n`)
	}
	return false
}

export function postgresUrl(): string | undefined {
	const url = process.env.TEST_DATABASE_URL
	if (url) return url
	serviceUnavailable('Postgres', 'set TEST_DATABASE_URL=postgres://…')
	return undefined
}

export function chromiumPath(): string | undefined {
	const path = process.env.CHROMIUM_PATH || '/usr/bin/chromium'
	if (existsSync(path)) return path
	serviceUnavailable('Chromium', `no browser at ${path}; set CHROMIUM_PATH`)
	return undefined
}

export function redisUrl(): string | undefined {
	const url = process.env.TEST_REDIS_URL
	if (url) return url
	serviceUnavailable('Redis', 'set TEST_REDIS_URL=redis://…')
	return undefined
}

/** Debian's redis-server, for suites that start and stop a Redis of their own (an outage on purpose). */
export function redisServerPath(): string | undefined {
	const path = Bun.which('redis-server')
	if (path) return path
	serviceUnavailable('redis-server', 'install Debian\'s redis-server')
	return undefined
}
