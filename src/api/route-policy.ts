/**
 * The one table of every `/api` route and the least role that may call it (docs/architecture.md#the-management-api). The auth
 * plugin enforces it; a route missing here never runs (404), and `test/api/route-policy.test.ts`
 * walks the whole table as anonymous, user, admin and super admin.
 */
import { ROLE } from '@shared/user'

export const ACCESS_ROLE = { public: 0, user: ROLE.user, admin: ROLE.admin, root: ROLE.root } as const
export type Access = keyof typeof ACCESS_ROLE
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'

export const ROUTE_POLICY: Record<`${Method} /api/${string}`, Access> = {
	// Server status and public content
	'GET /api/status': 'public',
	'GET /api/notice': 'public',
	'GET /api/about': 'public',
	'GET /api/home_page_content': 'public',
	// The repository's documentation, read in the console
	'GET /api/docs': 'admin',
	// Sign-in, registration, recovery
	'POST /api/user/register': 'public',
	'POST /api/user/login': 'public',
	'GET /api/verification': 'public',
	'GET /api/reset_password': 'public',
	'POST /api/user/reset': 'public',
	'GET /api/oauth/state': 'public',
	'GET /api/oauth/wechat': 'public',
	'GET /api/oauth/telegram/login': 'public',
	'GET /api/oauth/github': 'public',
	'GET /api/oauth/linuxdo': 'public',
	'GET /api/oauth/oidc': 'public',
	// The signed-in user's own account
	'GET /api/user/logout': 'user',
	'GET /api/user/self': 'user',
	'PUT /api/user/self': 'user',
	'DELETE /api/user/self': 'user',
	'GET /api/user/token': 'user',
	'GET /api/user/aff': 'user',
	'GET /api/user/models': 'user',
	'GET /api/user/self/groups': 'user',
	'POST /api/user/aff_transfer': 'user',
	// Wallet: redeem a code, price and start an online top-up, the caller's top-up records
	'POST /api/user/topup': 'user',
	'GET /api/user/topup/self': 'user',
	'POST /api/user/amount': 'user',
	'POST /api/user/pay': 'user',
	// The payment service's callback: no session, the signature is the authentication
	'GET /api/user/epay/notify': 'public',
	'POST /api/user/epay/notify': 'public',
	// Pricing is public
	'GET /api/pricing': 'public',
	// Usage dashboard (quota_data)
	'GET /api/data/self': 'user',
	'GET /api/data/': 'admin',
	// Drawing and async tasks
	'GET /api/mj/self': 'user',
	'GET /api/mj/': 'admin',
	'GET /api/task/self': 'user',
	'GET /api/task/': 'admin',
	'GET /api/oauth/wechat/bind': 'user',
	'GET /api/oauth/email/bind': 'user',
	'GET /api/oauth/telegram/bind': 'user',
	'DELETE /api/oauth/:provider/bind': 'user',
	// The caller's API tokens
	'GET /api/token/': 'user',
	'GET /api/token/search': 'user',
	'GET /api/token/:id': 'user',
	'POST /api/token/': 'user',
	'PUT /api/token/': 'user',
	'DELETE /api/token/:id': 'user',
	// Usage logs
	'GET /api/log/self': 'user',
	'GET /api/log/self/stat': 'user',
	// User administration
	'GET /api/user/': 'admin',
	'GET /api/user/search': 'admin',
	'GET /api/user/:id': 'admin',
	'POST /api/user/': 'admin',
	'PUT /api/user/': 'admin',
	'POST /api/user/manage': 'admin',
	'DELETE /api/user/:id': 'admin',
	'DELETE /api/user/:id/bind/:provider': 'admin',
	'GET /api/group/': 'admin',
	'GET /api/models': 'admin',
	'GET /api/log/': 'admin',
	'GET /api/log/stat': 'admin',
	'DELETE /api/log/': 'admin',
	// Redemption codes
	'GET /api/redemption/': 'admin',
	'GET /api/redemption/search': 'admin',
	'GET /api/redemption/:id': 'admin',
	'POST /api/redemption/': 'admin',
	'PUT /api/redemption/': 'admin',
	'DELETE /api/redemption/:id': 'admin',
	// Channels
	'GET /api/channel/': 'admin',
	'GET /api/channel/search': 'admin',
	'GET /api/channel/models': 'admin',
	'GET /api/channel/types': 'admin',
	'GET /api/channel/unpriced_models': 'admin',
	'POST /api/channel/check': 'admin',
	'GET /api/channel/:id': 'admin',
	'POST /api/channel/': 'admin',
	'PUT /api/channel/': 'admin',
	'DELETE /api/channel/:id': 'admin',
	'DELETE /api/channel/disabled': 'admin',
	'POST /api/channel/batch': 'admin',
	'POST /api/channel/batch/tag': 'admin',
	'PUT /api/channel/tag': 'admin',
	'POST /api/channel/tag/enabled': 'admin',
	'POST /api/channel/tag/disabled': 'admin',
	'POST /api/channel/fix': 'admin',
	'POST /api/channel/:id/keys': 'admin',
	'PUT /api/channel/:id/keys/:index': 'admin',
	'DELETE /api/channel/:id/keys/:index': 'admin',
	'GET /api/channel/test': 'admin',
	'GET /api/channel/test/:id': 'admin',
	'GET /api/channel/update_balance': 'admin',
	'GET /api/channel/update_balance/:id': 'admin',
	'GET /api/channel/fetch_models/:id': 'admin',
	'POST /api/channel/fetch_models': 'admin',
	'GET /api/channel/test_upstream/:id': 'admin',
	'GET /api/channel/model_sync': 'admin',
	'GET /api/channel/model_sync/:id': 'admin',
	'POST /api/channel/model_sync/:id': 'admin',
	// Operation, system and other settings
	'GET /api/option/': 'root',
	'PUT /api/option/': 'root',
	'POST /api/option/rest_model_ratio': 'root',
	// Plans: the super admin writes them; signed-in users list (admins: all), buy and pay for them
	'GET /api/plan/': 'user',
	'POST /api/plan/': 'root',
	'PUT /api/plan/': 'root',
	'DELETE /api/plan/:id': 'root',
	'POST /api/plan/:id/purchase': 'user',
	'POST /api/plan/:id/pay': 'user',
	// Subscriptions: the caller's own; any user's for admins, who may reset a window
	'GET /api/user/self/subscriptions': 'user',
	'GET /api/user/:id/subscriptions': 'admin',
	'POST /api/user/:id/subscriptions/:subscription/reset': 'admin',
	// Revenue, cost and margin of calls (the dashboard's admin part)
	'GET /api/data/margin': 'admin',
	// Session affinity (the relay's key router)
	'POST /api/affinity/purge': 'root',
}

/** A HEAD request is a GET without the body (Elysia runs the GET route for it): the GET's access. */
export function accessFor(method: string, route: string): Access | undefined {
	const asked = method === 'HEAD' ? 'GET' : method
	return ROUTE_POLICY[`${asked as Method} ${route}` as keyof typeof ROUTE_POLICY]
}
