/**
 * The whole management API: one Elysia instance per domain under `/api`, answering in the envelope.
 * Loaded and built on the first request that `./index.ts` does not answer itself.
 */
import { Elysia } from 'elysia'
import type { Dependencies } from '@/dependencies'
import { channelRoutes } from './channels'
import { groupRoutes } from './groups'
import { logRoutes } from './logs'
import { optionRoutes } from './options'
import { envelopeErrors } from './plugins/envelope'
import { parseApiBody } from './plugins/request-body'
import { refuseNulInAddress } from './plugins/nul-character'
import { localizeAnswer } from './plugins/localize'
import { noStore } from './plugins/no-store'
import { statusRoutes } from './status'
import { tokenRoutes } from './tokens'
import { userRoutes } from './users'
import { verificationRoutes } from './verification'
import { oauthRoutes } from './oauth'
import { redemptionRoutes } from './redemptions'
import { epayNotifyRoutes, topUpRoutes } from './top-ups'
import { pricingRoutes } from './pricing'
import { dataRoutes } from './data'
import { taskRoutes } from './tasks'
import { affinityRoutes } from './affinity'
import { planApiRoutes } from './plans'
import { docsRoutes } from './docs'

export function managementRoutes(dependencies: Dependencies) {
	return new Elysia({ prefix: '/api' })
		.use(envelopeErrors(dependencies.logger))
		// Mounted before the JSON parser, which would otherwise read its body first: it wants the raw text.
		.use(epayNotifyRoutes(dependencies))
		// Every body through the one bounded reader: JSON (also without a content type), forms as text fields.
		.onParse(parseApiBody(dependencies.config.maxBodyBytes))
		// No NUL character in a path or query, once the caller is known (a body's: the reader refuses it).
		.onBeforeHandle(refuseNulInAddress)
		.onAfterHandle(noStore)
		// Every answer's message in the caller's language.
		.onAfterHandle(localizeAnswer)
		.use(statusRoutes(dependencies))
		.use(userRoutes(dependencies))
		.use(verificationRoutes(dependencies))
		.use(oauthRoutes(dependencies))
		.use(channelRoutes(dependencies))
		.use(groupRoutes(dependencies))
		.use(tokenRoutes(dependencies))
		.use(logRoutes(dependencies))
		.use(optionRoutes(dependencies))
		.use(redemptionRoutes(dependencies))
		.use(topUpRoutes(dependencies))
		.use(pricingRoutes(dependencies))
		.use(dataRoutes(dependencies))
		.use(taskRoutes(dependencies))
		.use(affinityRoutes(dependencies))
		.use(planApiRoutes(dependencies))
		.use(docsRoutes(dependencies))
}
