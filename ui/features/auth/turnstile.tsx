/**
 * Cloudflare Turnstile for the calls the server checks when `turnstile_check` is on (login,
 * registration, email codes, the reset mail): they carry `?turnstile=<token>`. Cloudflare's script
 * is loaded only when the check is on, and only in the browser; the widget is rendered explicitly
 * with the site key from /api/status. A token is good for one verification, so taking it resets
 * the widget, which then runs the check again for the next call.
 */
import { type ReactNode, useCallback, useEffect, useState } from 'react'
import { toast } from '@ui/components/ui/toaster'
import { useTranslation } from '@ui/i18n'
import { useStatus } from '@ui/lib/status'

export const TURNSTILE_SCRIPT_URL = 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit'

/** The part of Cloudflare's `window.turnstile` the console uses. */
type TurnstileApi = {
	render(container: HTMLElement, parameters: {
		sitekey: string
		callback: (token: string) => void
		'expired-callback': () => void
		'error-callback': () => void
		language: string
	}): string | undefined
	reset(widgetId: string): void
	remove(widgetId: string): void
}

const globalApi = () => (window as Window & { turnstile?: TurnstileApi }).turnstile

let scriptLoading: Promise<TurnstileApi> | undefined

/** Loads Cloudflare's script once per page; a failed load may be tried again by the next widget. */
function loadTurnstile(): Promise<TurnstileApi> {
	const loaded = globalApi()
	if (loaded) return Promise.resolve(loaded)
	scriptLoading ??= new Promise<TurnstileApi>((resolve, reject) => {
		const script = document.createElement('script')
		script.src = TURNSTILE_SCRIPT_URL
		script.async = true
		script.onload = () => {
			const api = globalApi()
			if (api) resolve(api)
			else reject(new Error('the Turnstile script defined no window.turnstile'))
		}
		script.onerror = () => {
			scriptLoading = undefined
			script.remove()
			reject(new Error('the Turnstile script did not load'))
		}
		document.head.append(script)
	})
	return scriptLoading
}

export type Turnstile = {
	/**
	 * The token for one protected call: undefined when the check is off. While the check is still
	 * running there is none yet: the "retry in a few seconds" message is shown and the
	 * answer is null, and the caller does not submit.
	 */
	take(): string | undefined | null
	/** Where the widget shows; null when the check is off. */
	widget: ReactNode
}

export function useTurnstile(): Turnstile {
	const { t, language } = useTranslation()
	const status = useStatus()
	const enabled = status.turnstile_check
	const siteKey = status.turnstile_site_key
	const [container, setContainer] = useState<HTMLDivElement | null>(null)
	const [widgetId, setWidgetId] = useState<string>()
	const [token, setToken] = useState('')

	useEffect(() => {
		if (!enabled || !container) return
		let active = true
		let rendered: string | undefined
		loadTurnstile().then((api) => {
			if (!active) return
			rendered = api.render(container, {
				sitekey: siteKey,
				callback: (issued) => active && setToken(issued),
				'expired-callback': () => active && setToken(''),
				'error-callback': () => active && setToken(''),
				language: language === 'en' ? 'en' : 'zh-cn',
			})
			setWidgetId(rendered)
		}, () => {
			// Without the script no token ever comes: every submit keeps showing the wait message.
		})
		return () => {
			active = false
			setToken('')
			setWidgetId(undefined)
			if (rendered !== undefined) globalApi()?.remove(rendered)
		}
	}, [enabled, container, siteKey, language])

	const take = useCallback(() => {
		if (!enabled) return undefined
		if (!token) {
			toast.info(t('请几秒后重试，Turnstile 检查正在进行'))
			return null
		}
		setToken('')
		if (widgetId !== undefined) globalApi()?.reset(widgetId)
		return token
	}, [enabled, token, widgetId, t])

	return { take, widget: enabled ? <div ref={setContainer} className="flex min-h-[65px] justify-center" /> : null }
}
