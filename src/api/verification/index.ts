import { Elysia } from 'elysia'
import { z } from 'zod'
import type { Dependencies } from '@/dependencies'
import { unauthorized } from '../errors'
import { signedInUser } from '../plugins/signed-in-user'
import { authentication } from '../plugins/auth'
import { ok } from '../respond'
import { emailSchema } from './email-rules'
import { resetPassword, sendEmailCode, sendResetLink } from './mail-flows'
import { VERIFICATION_MESSAGES } from './messages'
import { verifyTurnstile } from './turnstile'

const turnstile = z.string().optional()

const resetSchema = z.object({
	email: emailSchema,
	token: z.string({ error: VERIFICATION_MESSAGES.resetLinkInvalid }).trim().min(1, VERIFICATION_MESSAGES.resetLinkInvalid).max(128, VERIFICATION_MESSAGES.resetLinkInvalid),
})

/**
 * Email codes and password reset; mounted without a prefix because `POST /user/reset` lives
 * beside the user routes.
 *
 * `GET /verification` serves registration and email binding. `purpose=register` or `purpose=bind`
 * chooses; without it a signed-in caller gets a bind code and anyone else a registration code.
 */
export function verificationRoutes(dependencies: Dependencies) {
	return new Elysia()
		.use(authentication(dependencies))
		.get('/verification', async ({ query, request, server }) => {
			const address = dependencies.clientAddress(server, request)
			await verifyTurnstile(dependencies, query.turnstile, address)
			const user = query.purpose === 'register' ? undefined : await signedInUser(dependencies, request.headers)
			if (query.purpose === 'bind' && !user) throw unauthorized()
			await sendEmailCode(dependencies, query.email, user, address)
			return ok(undefined, VERIFICATION_MESSAGES.codeSent)
		}, { query: z.object({ email: emailSchema, turnstile, purpose: z.enum(['register', 'bind']).optional() }) })
		.get('/reset_password', async ({ query, request, server }) => {
			const address = dependencies.clientAddress(server, request)
			await verifyTurnstile(dependencies, query.turnstile, address)
			await sendResetLink(dependencies, query.email, address)
			return ok(undefined, VERIFICATION_MESSAGES.resetMailSent)
		}, { query: z.object({ email: emailSchema, turnstile }) })
		.post('/user/reset', async ({ body, request, server }) => {
			return ok(await resetPassword(dependencies, body.email, body.token, dependencies.clientAddress(server, request)))
		}, { body: resetSchema })
}
