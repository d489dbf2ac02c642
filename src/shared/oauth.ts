/** The sign-in services an account can be bound to, by the names their routes use. */
import { z } from 'zod'
import { rowIdTextSchema } from './api'
import { OAUTH_MESSAGES } from './messages/oauth'

export const BINDING_PROVIDERS = ['github', 'linuxdo', 'oidc', 'wechat', 'telegram'] as const
export type BindingProvider = (typeof BINDING_PROVIDERS)[number]

const providerSchema = z.enum(BINDING_PROVIDERS, { error: OAUTH_MESSAGES.unknownProvider })

/** `DELETE /api/oauth/:provider/bind`: the signed-in user unbinds the service from their own account. */
export const unbindParamsSchema = z.object({ provider: providerSchema })

/** `DELETE /api/user/:id/bind/:provider`: an admin unbinds it from a user they may manage. */
export const userUnbindParamsSchema = z.object({ id: rowIdTextSchema, provider: providerSchema })
