export type TelegramFields = Record<string, string | number | undefined>

/**
 * Loads Telegram's login widget into `container` (once: a filled container is left alone); the
 * widget calls `onAuth` by the global name onTelegramAuth with the signed account fields.
 * Answers whether it loaded the widget now.
 */
export function mountTelegramWidget(container: HTMLElement | null, botName: string, size: 'large' | 'medium', onAuth: (fields: TelegramFields) => void) {
	if (!container || container.childElementCount > 0) return false
	window.onTelegramAuth = onAuth
	const script = document.createElement('script')
	script.async = true
	script.src = 'https://telegram.org/js/telegram-widget.js?22'
	script.dataset.telegramLogin = botName
	script.dataset.size = size
	script.dataset.onauth = 'onTelegramAuth(user)'
	container.append(script)
	return true
}

/** The widget's fields as the query of the login and bind calls. */
export function telegramQuery(fields: TelegramFields) {
	const query = new URLSearchParams()
	for (const [key, value] of Object.entries(fields)) if (value !== undefined) query.set(key, String(value))
	return query
}
