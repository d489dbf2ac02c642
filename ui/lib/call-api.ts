import { toast } from '@ui/components/ui/toaster'
import { describeError, type Envelope } from '@ui/lib/api'

type Translate = (key: string, values?: Record<string, string | number>) => string

/**
 * The console's error convention (docs/specification/console.md#what-the-console-says): `success: false` shows the server's message as an
 * error toast; a thrown error (network, 401/429/500/405 catalogue) shows its catalogue text. Answers
 * the envelope on success, undefined otherwise. `success` (a zh source string) is toasted on success.
 */
export async function callApi<E extends Envelope<unknown>>(t: Translate, call: Promise<E>, success?: string): Promise<E | undefined> {
	try {
		const envelope = await call
		if (!envelope.success) {
			toast.error(envelope.message ? t(envelope.message) : t('操作失败'))
			return undefined
		}
		if (success) toast.success(t(success))
		return envelope
	} catch (error) {
		toast.error(describeError(error, t))
		return undefined
	}
}
