import type { RouteObject } from 'react-router'
import { ConsoleLayout, consoleLoader, consoleShouldRevalidate, PageErrorBoundary } from '@ui/components/layout/console-layout'
import { PublicLayout } from '@ui/components/layout/public-layout'
import { loadDictionaries } from '@ui/i18n'
import type { DictionaryName } from '@ui/i18n/dictionaries'
import { notFoundRoute } from '@ui/features/not-found'
import { Root, RootErrorBoundary, rootLoader, rootShouldRevalidate } from '@ui/root'

/**
 * Shared by the server renderer and the browser router. Pages are lazy: each is its own chunk, loaded
 * before hydration for the first page (entry.client) and on navigation for the others, together with
 * the English dictionaries of the features it shows. A page module (`ui/features/<domain>/…-route.tsx`)
 * exports `Component` and, when it needs data, `loader`.
 */
const page = (id: string, path: string | undefined, title: string, dictionaries: DictionaryName[], load: () => Promise<Partial<RouteObject>>): RouteObject => ({
	id,
	...(path === undefined ? { index: true } : { path }),
	handle: { title },
	lazy: (async () => (await Promise.all([load(), loadDictionaries(dictionaries)]))[0]) as RouteObject['lazy'],
})

/** Behind the login; admin pages check the role in their loaders. */
const consolePages: RouteObject[] = [
	page('playground', 'playground', '操练场', ['playground'], () => import('@ui/features/playground/playground-route')),
	page('chat', 'chat/:id?', '聊天', ['chat'], () => import('@ui/features/chat/chat-route')),
	page('chat2link', 'chat2link', '聊天', ['chat'], () => import('@ui/features/chat/chat2link-route')),
	page('token', 'token', '令牌', ['tokens'], () => import('@ui/features/tokens/token-route')),
	page('detail', 'detail', '数据看板', ['dashboard'], () => import('@ui/features/dashboard/dashboard-route')),
	page('redemption', 'redemption', '兑换码', ['redemptions', 'tokens'], () => import('@ui/features/redemptions/redemption-route')),
	page('topup', 'topup', '钱包', ['topUp'], () => import('@ui/features/top-up/top-up-route')),
	page('plan', 'plan', '套餐', ['plans'], () => import('@ui/features/plans/plan-route')),
	page('user', 'user', '用户管理', ['users', 'plans'], () => import('@ui/features/users/user-route')),
	page('channel', 'channel', '渠道', ['channels', 'channelEditor'], () => import('@ui/features/channels/channel-route')),
	page('channel-add', 'channel/add', '添加渠道', ['channelEditor', 'channelKeys'], () => import('@ui/features/channels/channel-editor-route')),
	page('channel-edit', 'channel/edit/:id', '编辑渠道', ['channelEditor', 'channelKeys'], () => import('@ui/features/channels/channel-editor-route')),
	page('log', 'log', '日志', ['logs'], () => import('@ui/features/logs/log-route')),
	page('midjourney', 'midjourney', '绘图', ['tasks'], () => import('@ui/features/midjourney/midjourney-route')),
	page('task', 'task', '异步任务', ['tasks'], () => import('@ui/features/tasks/task-route')),
	page('setting', 'setting', '设置', ['settings', 'settingsAdmin'], () => import('@ui/features/settings/setting-route')),
	page('docs', 'docs/*', '文档', ['docs'], () => import('@ui/features/docs/docs-route')),
].map((route) => ({ ...route, ErrorBoundary: PageErrorBoundary }))

const publicPages: RouteObject[] = [
	page('home', undefined, '首页', ['home'], () => import('@ui/features/home/home-route')),
	page('pricing', 'pricing', '定价', ['pricing'], () => import('@ui/features/pricing/pricing-route')),
	page('about', 'about', '关于', ['home'], () => import('@ui/features/about/about-route')),
]

/** Sign-in pages: a centred card, no menu. */
const authPages: RouteObject[] = [
	page('login', 'login', '登录', ['auth'], () => import('@ui/features/auth/login-route')),
	page('register', 'register', '注册', ['auth'], () => import('@ui/features/auth/register-route')),
	page('reset', 'reset', '重置密码', ['auth'], () => import('@ui/features/auth/reset-route')),
	page('reset-confirm', 'user/reset', '重置密码', ['auth'], () => import('@ui/features/auth/reset-confirm-route')),
	page('oauth-github', 'oauth/github', '登录', ['auth'], () => import('@ui/features/auth/oauth-callback-route')),
	page('oauth-linuxdo', 'oauth/linuxdo', '登录', ['auth'], () => import('@ui/features/auth/oauth-callback-route')),
	page('oauth-oidc', 'oauth/oidc', '登录', ['auth'], () => import('@ui/features/auth/oauth-callback-route')),
]

export const routes: RouteObject[] = [
	{
		id: 'root',
		path: '/',
		loader: rootLoader,
		shouldRevalidate: rootShouldRevalidate,
		Component: Root,
		ErrorBoundary: RootErrorBoundary,
		children: [
			{ id: 'public', Component: PublicLayout, children: publicPages },
			...authPages,
			{ id: 'console', loader: consoleLoader, shouldRevalidate: consoleShouldRevalidate, Component: ConsoleLayout, children: consolePages },
			notFoundRoute,
		],
	},
]
