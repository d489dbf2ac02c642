/**
 * What services and controllers are given: built once in `createApp` from the configuration and
 * the store, overridable in tests (a fake mailer, a faster password hash, a fixed rate limit).
 */
import type { Config } from './config'
import type { Store } from './db'
import type { SharedChangeFeed } from './db/shared-change-feed'
import type { Sessions } from './auth/session'
import type { OptionStore } from './db/stores/options'
import type { ClientAddress } from './lib/client-address'
import type { SecretBox } from './lib/crypto'
import type { Logger } from './lib/logger'
import type { OutboundFetch } from './lib/outbound'
import type { Mailer } from './lib/mailer'
import type { RateLimiter } from './lib/rate-limiter'
import type { AffinityStore } from './lib/session-affinity'
import type { RedisLink } from './lib/redis'
import type { SubscriptionBook } from './billing/subscription-book'

export interface PasswordHasher {
	hash(password: string): Promise<string>
	/** Accepts Ferry's argon2id hashes and imported bcrypt hashes. */
	verify(password: string, hash: string): Promise<boolean>
}

export interface Dependencies {
	config: Config
	store: Store
	options: OptionStore
	secrets: SecretBox
	/** Signs and reads console sessions (`@elysiajs/jwt`). */
	sessions: Sessions
	logger: Logger
	rateLimiter: RateLimiter
	passwords: PasswordHasher
	/** Tells caches (routing table, tokens, users) that records changed. */
	changes: SharedChangeFeed
	/** Sends verification codes and reset links; by default SMTP as the system settings say. */
	mailer: Mailer
	/**
	 * The one outbound client (docs/operations/security.md#outbound-requests): every request Ferry makes to another server goes through
	 * it with a policy (`upstream`, `service`, `user-content`). Tests inject fakes for services
	 * outside the machine (Turnstile, OAuth providers).
	 */
	fetch: OutboundFetch
	/** The Redis link when `REDIS_URL` is set (shared counts between nodes); undefined without one. */
	redis: RedisLink | undefined
	/** Which key each session was last served by (the relay's router); shared through Redis when configured. */
	affinity: AffinityStore
	/** The client's address (through trusted proxies): for rate limits, IP allow-lists and logs. */
	clientAddress: ClientAddress
	/** Every user's active subscriptions in memory: which may pay a call, and the group a plan puts its subscriber in. */
	subscriptions: SubscriptionBook
	/** When the process started, in unix seconds (shown by /api/status). */
	startTime: number
}

/** argon2id at the OWASP baseline (19 MiB, 2 passes): strong, and quick enough for a 2-core host. */
export const argon2Passwords: PasswordHasher = {
	hash: (password) => Bun.password.hash(password, { algorithm: 'argon2id', memoryCost: 19456, timeCost: 2 }),
	async verify(password, hash) {
		try {
			return await Bun.password.verify(password, hash)
		} catch {
			return false
		}
	},
}
