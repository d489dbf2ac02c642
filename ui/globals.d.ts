import type { HydrationState } from 'react-router'
import type { DocumentProps } from '@ui/root'

declare global {
	interface Window {
		/** Set by the root route once React has hydrated the server-rendered page. */
		__hydrated?: boolean
		/** Written by src/console into the bootstrap script. */
		__documentProps: DocumentProps
		__staticRouterHydrationData?: HydrationState
		/** The Telegram login widget calls this global by name with the signed account fields. */
		onTelegramAuth?: (fields: Record<string, string | number | undefined>) => void
	}
}
