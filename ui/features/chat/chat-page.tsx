import { useEffect, useState } from 'react'
import { useNavigate } from 'react-router'
import { CopyIcon } from 'lucide-react'
import { Button } from '@ui/components/ui/button'
import { copyText } from '@ui/components/ui/copy'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'
import { useStatus } from '@ui/lib/status'
import { chatFrameMessages, firstEnabledTokenKey, type FrameTarget, frameTarget, NO_TOKEN_REDIRECT_MS } from '@ui/features/chat/chat-frame'

type FrameState = { kind: 'loading' } | (FrameTarget & { key?: string }) | { kind: 'message'; text: string }

/**
 * Opens a chat link template with the user's first enabled token. The key is fetched in the browser:
 * the server never renders it into the page. A web link is embedded; an app link (`cherrystudio://`)
 * is offered as a button, since browsers block opening it without a click and then print the blocked
 * address, key included, to the console. Without the app the button does nothing, so the page says
 * so and offers the address and the key to set up any other client by hand.
 */
export function ChatFrame({ template }: { template: string | undefined }) {
	const { t } = useTranslation()
	const status = useStatus()
	const navigate = useNavigate()
	const [state, setState] = useState<FrameState>({ kind: 'loading' })

	useEffect(() => {
		let current = true
		let redirect: ReturnType<typeof setTimeout> | undefined
		async function open() {
			if (template === undefined) return setState({ kind: 'message', text: chatFrameMessages.notConfigured })
			const key = await firstEnabledTokenKey(browserApi).catch(() => undefined)
			if (!current) return
			if (!key) {
				setState({ kind: 'message', text: chatFrameMessages.noEnabledToken })
				redirect = setTimeout(() => navigate('/token'), NO_TOKEN_REDIRECT_MS)
				return
			}
			const target = frameTarget(template, key, status.server_address || window.location.origin)
			setState({ ...target, key })
		}
		void open()
		return () => {
			current = false
			clearTimeout(redirect)
		}
	}, [template, status.server_address, navigate])

	if (state.kind === 'embed') {
		return <iframe title={t('聊天')} src={state.url} className="h-[calc(100dvh-10rem)] min-h-[420px] w-full rounded-lg border-0" allow="clipboard-read; clipboard-write" />
	}
	const text = state.kind === 'message' ? t(state.text)
		: state.kind === 'misconfigured' ? t(chatFrameMessages.misconfigured)
		: state.kind === 'open' ? t('聊天将在它的应用中打开')
		: t('正在打开聊天…')
	return (
		<div className="flex min-h-[240px] flex-col items-center justify-center gap-3 text-sm text-muted-foreground">
			<p role={state.kind === 'message' || state.kind === 'misconfigured' ? 'alert' : 'status'}>{text}</p>
			{state.kind === 'open' && <Button asChild><a href={state.url}>{t('在应用中打开')}</a></Button>}
			{state.kind === 'open' && state.key && <ManualSetup tokenKey={state.key} />}
		</div>
	)
}

/** For a browser without the app: the address and the key, to set up any chat client by hand. */
function ManualSetup({ tokenKey }: { tokenKey: string }) {
	const { t } = useTranslation()
	const status = useStatus()
	const baseUrl = `${(status.server_address || window.location.origin).replace(/\/+$/, '')}/v1`
	return (
		<div className="flex max-w-md flex-col items-center gap-2 text-center" data-testid="chat-manual-setup">
			<p>{t('没有安装这个应用时，点击不会有反应。也可以在任何聊天客户端中手动填写 API 地址和密钥：')}</p>
			<code className="rounded bg-muted px-2 py-1 font-mono text-xs text-foreground" data-testid="chat-base-url">{baseUrl}</code>
			<div className="flex gap-2">
				<Button variant="outline" size="sm" onClick={() => copyText(baseUrl, t)}>
					<CopyIcon />
					{t('复制 API 地址')}
				</Button>
				<Button variant="outline" size="sm" onClick={() => copyText(tokenKey, t)}>
					<CopyIcon />
					{t('复制密钥')}
				</Button>
			</div>
		</div>
	)
}
