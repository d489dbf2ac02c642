import { afterEach, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ConfigError, flagsToEnvironment, loadConfig, nodeNameOfHost } from '@/config'

describe('configuration', () => {
	const directories: string[] = []
	const scratch = () => {
		const directory = mkdtempSync(join(tmpdir(), 'ferry-config-'))
		directories.push(directory)
		return directory
	}
	afterEach(() => {
		for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true })
	})

	test('defaults to port 3000, SQLite and ./data', () => {
		const directory = scratch()
		const config = loadConfig({ DATA_DIR: directory })
		expect(config).toMatchObject({ port: 3000, databaseUrl: '', redisUrl: '', logLevel: 'info', dataDir: directory })
		expect(Object.isFrozen(config)).toBe(true)
	})

	test('reads flags in both spellings and lets a flag win over the environment', () => {
		expect(flagsToEnvironment(['--port', '8080', '--data-dir=/tmp/x', '--log-level', 'debug'])).toEqual({ PORT: '8080', DATA_DIR: '/tmp/x', LOG_LEVEL: 'debug' })
		const config = loadConfig({ PORT: '4000', DATA_DIR: scratch() }, ['--port', '5000'])
		expect(config.port).toBe(5000)
	})

	test('generates secrets once into the data directory, private to the owner, and reuses them', () => {
		const directory = scratch()
		const first = loadConfig({ DATA_DIR: directory })
		const second = loadConfig({ DATA_DIR: directory })
		expect(first.sessionSecret.length).toBeGreaterThanOrEqual(32)
		expect(second.sessionSecret).toBe(first.sessionSecret)
		expect(second.cryptoSecret).toBe(first.cryptoSecret)
		expect(first.cryptoSecret).not.toBe(first.sessionSecret)
		expect(statSync(join(directory, 'secrets.json')).mode & 0o777).toBe(0o600)
		expect(JSON.parse(readFileSync(join(directory, 'secrets.json'), 'utf8'))).toEqual({ session: first.sessionSecret, crypto: first.cryptoSecret })
	})

	test('uses secrets from the environment when given', () => {
		const config = loadConfig({ DATA_DIR: scratch(), SESSION_SECRET: 's'.repeat(40), CRYPTO_SECRET: 'c'.repeat(40) })
		expect(config).toMatchObject({ sessionSecret: 's'.repeat(40), cryptoSecret: 'c'.repeat(40) })
	})

	test('the first-token timeout is off unless UPSTREAM_FIRST_TOKEN_TIMEOUT_SECONDS sets it, and is never negative', () => {
		expect(loadConfig({ DATA_DIR: scratch() }).upstreamTimeouts).toEqual({ connectMs: 10_000, firstByteMs: 300_000, idleMs: 120_000, firstTokenMs: 0 })
		expect(loadConfig({ DATA_DIR: scratch(), UPSTREAM_FIRST_TOKEN_TIMEOUT_SECONDS: '45' }).upstreamTimeouts.firstTokenMs).toBe(45_000)
		expect(() => loadConfig({ DATA_DIR: scratch(), UPSTREAM_FIRST_TOKEN_TIMEOUT_SECONDS: '-1' })).toThrow(/UPSTREAM_FIRST_TOKEN_TIMEOUT_SECONDS/)
	})

	test('refuses a database URL that is neither empty nor Postgres, and a bad port', () => {
		expect(() => loadConfig({ DATA_DIR: scratch(), DATABASE_URL: 'mysql://x' })).toThrow(ConfigError)
		expect(() => loadConfig({ DATA_DIR: scratch(), PORT: '99999' })).toThrow(/PORT/)
	})

	test('refuses a NODE_NAME with a "/" or other characters outside letters, digits, ".", "_" and "-", naming the ones allowed', () => {
		expect(loadConfig({ DATA_DIR: scratch(), NODE_NAME: 'node-a.eu_1' }).nodeName).toBe('node-a.eu_1')
		for (const name of ['a/1', 'node a', 'nœud', 'x'.repeat(65)]) {
			expect(() => loadConfig({ DATA_DIR: scratch(), NODE_NAME: name })).toThrow(ConfigError)
		}
		expect(() => loadConfig({ DATA_DIR: scratch(), NODE_NAME: 'a/1' })).toThrow('NODE_NAME must be at most 64 letters (A-Z, a-z), digits, ".", "_" or "-"')
		expect(() => loadConfig({ DATA_DIR: scratch() }, ['--node-name', 'edge/2'])).toThrow(/NODE_NAME/)
	})

	test('names an unnamed node after its host, made to fit the rule: other characters become "-", at most 64 of them', () => {
		expect(nodeNameOfHost('edge-1.example.internal')).toBe('edge-1.example.internal')
		expect(nodeNameOfHost('edge/1 \u00e9')).toBe('edge-1--')
		expect(nodeNameOfHost('h'.repeat(80))).toBe('h'.repeat(64))
		expect(nodeNameOfHost('')).toBe('node')
	})

	test('reads trusted proxies as addresses and ranges, and refuses anything else', () => {
		expect(loadConfig({ DATA_DIR: scratch() }).trustedProxies).toEqual([])
		expect(loadConfig({ DATA_DIR: scratch(), TRUSTED_PROXIES: '10.0.0.0/8, 127.0.0.1 ::1' }).trustedProxies).toEqual(['10.0.0.0/8', '127.0.0.1', '::1'])
		expect(() => loadConfig({ DATA_DIR: scratch(), TRUSTED_PROXIES: 'proxy.internal' })).toThrow(/TRUSTED_PROXIES/)
		expect(() => loadConfig({ DATA_DIR: scratch(), TRUSTED_PROXIES: '10.0.0.0/33' })).toThrow(/TRUSTED_PROXIES/)
	})
})
