/** A small levelled logger writing one line per event. Never pass secrets in `fields`. */
import type { LOG_LEVELS } from '../config'

type Level = (typeof LOG_LEVELS)[number]
const RANK: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 }

export interface Logger {
	debug(message: string, fields?: Record<string, unknown>): void
	info(message: string, fields?: Record<string, unknown>): void
	warn(message: string, fields?: Record<string, unknown>): void
	error(message: string, fields?: Record<string, unknown>): void
}

export function createLogger(level: Level): Logger {
	const write = (eventLevel: Level) => (message: string, fields?: Record<string, unknown>) => {
		if (RANK[eventLevel] < RANK[level]) return
		const line = `${new Date().toISOString()} ${eventLevel.toUpperCase()} ${message}${fields ? ` ${JSON.stringify(fields)}` : ''}`
		if (RANK[eventLevel] >= RANK.warn) console.error(line)
		else console.log(line)
	}
	return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') }
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} }
